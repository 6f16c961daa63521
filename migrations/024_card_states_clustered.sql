-- +goose Up
-- card_states stored in its primary key's order (WITHOUT ROWID): the study page, the home page
-- and /stats read all of a user's states, which are then a few adjacent pages rather than an
-- index entry plus a table page look-up per card.
CREATE TABLE card_states_new (
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
) STRICT, WITHOUT ROWID;
INSERT INTO card_states_new (user_id, card_id, state, step, stability, difficulty, due, last_review, reps, lapses)
SELECT user_id, card_id, state, step, stability, difficulty, due, last_review, reps, lapses FROM card_states;
DROP TABLE card_states;
ALTER TABLE card_states_new RENAME TO card_states;
CREATE INDEX card_states_due ON card_states (user_id, due);

-- +goose Down
CREATE TABLE card_states_old (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    card_id     TEXT    NOT NULL,
    state       INTEGER NOT NULL CHECK (state BETWEEN 0 AND 3),
    step        INTEGER NOT NULL DEFAULT 0,
    stability   REAL    NOT NULL,
    difficulty  REAL    NOT NULL,
    due         INTEGER NOT NULL,
    last_review INTEGER NOT NULL,
    reps        INTEGER NOT NULL DEFAULT 0,
    lapses      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, card_id)
) STRICT;
INSERT INTO card_states_old SELECT user_id, card_id, state, step, stability, difficulty, due, last_review, reps, lapses FROM card_states;
DROP TABLE card_states;
ALTER TABLE card_states_old RENAME TO card_states;
CREATE INDEX card_states_due ON card_states (user_id, due);
