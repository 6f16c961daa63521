-- +goose Up
-- A mock interview session. Rows are written as the session happens, so a reload or a restart
-- resumes at the step the user was on.
CREATE TABLE mock_sessions (
    id             INTEGER PRIMARY KEY,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at     INTEGER NOT NULL,          -- unix ms, UTC
    seed           INTEGER NOT NULL,          -- picks follow-ups; picks the questions when seeded
    seeded         INTEGER NOT NULL DEFAULT 0, -- 1: questions from the seed alone ("same questions")
    topics         TEXT    NOT NULL DEFAULT '', -- topic slugs, comma-separated ('' = all)
    tags           TEXT    NOT NULL DEFAULT '', -- tags, comma-separated ('' = any)
    n              INTEGER NOT NULL CHECK (n BETWEEN 1 AND 20),
    depth          TEXT    NOT NULL CHECK (depth IN ('basics', 'solid', 'deeper')),
    followups      INTEGER NOT NULL DEFAULT 0,
    clock          TEXT    NOT NULL CHECK (clock IN ('soft', 'strict')),
    target_ms      INTEGER NOT NULL DEFAULT 0, -- per-session timer override, 0 = the cards' timing
    record_reviews INTEGER NOT NULL DEFAULT 1,
    status         TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'abandoned')),
    finished_at    INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX mock_sessions_user ON mock_sessions (user_id, created_at);

-- One row per question, created with the session; the stamps fill in as the user goes.
CREATE TABLE mock_answers (
    session_id           INTEGER NOT NULL REFERENCES mock_sessions (id) ON DELETE CASCADE,
    position             INTEGER NOT NULL,   -- 0-based order in the session
    card_id              TEXT    NOT NULL,
    target_ms            INTEGER NOT NULL,   -- the clock for this question, fixed at creation
    shown_at             INTEGER NOT NULL DEFAULT 0,
    answered_at          INTEGER NOT NULL DEFAULT 0,
    used_ms              INTEGER NOT NULL DEFAULT 0, -- computed by the server
    expired              INTEGER NOT NULL DEFAULT 0, -- strict clock ran out
    typed_answer         TEXT    NOT NULL DEFAULT '',
    covered              TEXT    NOT NULL DEFAULT '[]', -- JSON array of answer-bullet indexes
    pitfalls_hit         TEXT    NOT NULL DEFAULT '[]', -- JSON array of pitfall indexes
    checked              INTEGER NOT NULL DEFAULT 0,    -- the user confirmed the checklists
    followup_index       INTEGER NOT NULL DEFAULT -1,   -- -1: no follow-up for this question
    followup_target_ms   INTEGER NOT NULL DEFAULT 0,
    followup_shown_at    INTEGER NOT NULL DEFAULT 0,
    followup_answered_at INTEGER NOT NULL DEFAULT 0,
    followup_used_ms     INTEGER NOT NULL DEFAULT 0,
    followup_typed       TEXT    NOT NULL DEFAULT '',
    rating               INTEGER NOT NULL DEFAULT 0 CHECK (rating BETWEEN 0 AND 4), -- 0 = not yet
    rated_at             INTEGER NOT NULL DEFAULT 0,
    review_log_id        INTEGER NOT NULL DEFAULT 0, -- review_log row, 0 when not recorded
    PRIMARY KEY (session_id, position)
) STRICT;

-- +goose Down
DROP TABLE mock_answers;
DROP TABLE mock_sessions;
