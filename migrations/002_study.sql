-- +goose Up
-- Study progress is keyed by the card's id, never its text or file: editing a card keeps its
-- progress, and rows for a card removed from the deck stay (the card may come back).
CREATE TABLE card_states (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    card_id     TEXT    NOT NULL,
    state       INTEGER NOT NULL CHECK (state BETWEEN 0 AND 3), -- srs.State
    step        INTEGER NOT NULL DEFAULT 0,
    stability   REAL    NOT NULL,
    difficulty  REAL    NOT NULL,
    due         INTEGER NOT NULL,          -- unix ms, UTC
    last_review INTEGER NOT NULL,          -- unix ms, UTC (0 = never)
    reps        INTEGER NOT NULL DEFAULT 0,
    lapses      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, card_id)
) STRICT;
CREATE INDEX card_states_due ON card_states (user_id, due);

-- Append-only: one row per answer. The *_before columns hold the whole previous state so an undo
-- restores it exactly; undone is 0, or the unix ms of the undo.
CREATE TABLE review_log (
    id                 INTEGER PRIMARY KEY,
    user_id            INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    card_id            TEXT    NOT NULL,
    rating             INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 4),
    reviewed_at        INTEGER NOT NULL,
    state_before       INTEGER NOT NULL,
    step_before        INTEGER NOT NULL,
    stability_before   REAL    NOT NULL,
    difficulty_before  REAL    NOT NULL,
    due_before         INTEGER NOT NULL,
    last_review_before INTEGER NOT NULL,
    reps_before        INTEGER NOT NULL,
    lapses_before      INTEGER NOT NULL,
    state_after        INTEGER NOT NULL,
    stability_after    REAL    NOT NULL,
    difficulty_after   REAL    NOT NULL,
    elapsed_days       REAL    NOT NULL,   -- since the previous review (0 for a new card)
    scheduled_days     REAL    NOT NULL,   -- interval given: due_after - reviewed_at, in days
    duration_ms        INTEGER NOT NULL,   -- time taken to answer
    mode               TEXT    NOT NULL CHECK (mode IN ('study', 'mock')),
    undone             INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX review_log_user_time ON review_log (user_id, reviewed_at);
CREATE INDEX review_log_user_card ON review_log (user_id, card_id, id);

-- +goose Down
DROP TABLE review_log;
DROP TABLE card_states;
