-- +goose Up
-- Per-user FSRS: the weights fitted to the user's own answers (a JSON array of 21 numbers; ''
-- means the defaults), the ones in use before the last fit (for "revert"), and an optional
-- interview date (YYYY-MM-DD in the user's time zone; '' = none).
ALTER TABLE users ADD COLUMN fsrs_params TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN fsrs_params_prev TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN interview_date TEXT NOT NULL DEFAULT '';

-- The last fit asked for per user: one row, replaced by the next request.
CREATE TABLE fsrs_fits (
    user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    status      TEXT    NOT NULL CHECK (status IN ('running', 'applied', 'kept', 'failed')),
    started_at  INTEGER NOT NULL,          -- unix ms
    finished_at INTEGER NOT NULL DEFAULT 0,
    reviews     INTEGER NOT NULL DEFAULT 0,  -- answers read
    scored      INTEGER NOT NULL DEFAULT 0,  -- answers the loss is computed over
    loss_before REAL    NOT NULL DEFAULT 0,  -- log loss of the weights in use before
    loss_after  REAL    NOT NULL DEFAULT 0,  -- log loss of the fitted weights
    message     TEXT    NOT NULL DEFAULT ''
) STRICT;

-- +goose Down
DROP TABLE fsrs_fits;
ALTER TABLE users DROP COLUMN interview_date;
ALTER TABLE users DROP COLUMN fsrs_params_prev;
ALTER TABLE users DROP COLUMN fsrs_params;
