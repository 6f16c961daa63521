-- +goose Up
-- Cards a user took out of study (suspended) until they put them back. Kept apart from
-- card_states: a card never studied can be suspended too, and unsuspending keeps its state.
CREATE TABLE suspended_cards (
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    card_id      TEXT    NOT NULL,
    suspended_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, card_id)
) STRICT;

-- +goose Down
DROP TABLE suspended_cards;
