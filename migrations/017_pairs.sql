-- +goose Up
-- Whom an invite is for, as the admin typed it (a name or an address; shown on /admin only).
ALTER TABLE invites ADD COLUMN note TEXT NOT NULL DEFAULT '';

-- A live interview between two members: the interviewer sees the card's rubric, the candidate
-- only the question and the clock. On finishing, the result is also written as a finished
-- one-question mock session of the candidate's (mock_session_id), so it counts in their history.
CREATE TABLE pair_sessions (
    id              INTEGER PRIMARY KEY,
    code            TEXT    NOT NULL UNIQUE,      -- random; the session's URL
    interviewer_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    candidate_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    card_id         TEXT    NOT NULL,
    target_ms       INTEGER NOT NULL,             -- the clock, fixed at creation
    state           TEXT    NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'running', 'done', 'cancelled')),
    created_at      INTEGER NOT NULL,
    started_at      INTEGER NOT NULL DEFAULT 0,
    ended_at        INTEGER NOT NULL DEFAULT 0,
    notes           TEXT    NOT NULL DEFAULT '',  -- the interviewer's; shown to both at the end
    level           INTEGER NOT NULL DEFAULT 0 CHECK (level BETWEEN 0 AND 4), -- go-deeper level reached
    pitfalls_hit    TEXT    NOT NULL DEFAULT '[]', -- JSON array of pitfall indexes
    mock_session_id INTEGER REFERENCES mock_sessions (id) ON DELETE SET NULL
) STRICT;
CREATE INDEX pair_sessions_candidate ON pair_sessions (candidate_id, created_at);
CREATE INDEX pair_sessions_interviewer ON pair_sessions (interviewer_id, created_at);

-- +goose Down
DROP TABLE pair_sessions;
ALTER TABLE invites DROP COLUMN note;
