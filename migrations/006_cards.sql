-- +goose Up
-- Cards written or edited in the app. They live here rather than as files in the data
-- directory: saved in the same transaction as their revision, covered by `rehearse backup`,
-- and usable when the --content directory is read-only or the deck is embedded. The deck a
-- server runs is its card files with these laid over them, path for path.
CREATE TABLE deck_cards (
    card_id    TEXT    PRIMARY KEY,
    path       TEXT    NOT NULL UNIQUE,          -- e.g. 03-eager/my-card.md
    markdown   TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    updated_by INTEGER REFERENCES users (id) ON DELETE SET NULL
) STRICT;

-- Every save, restore, revert and deletion of a card, with who and when; markdown is the text
-- the card had after the change ('' when it went back to its file or was deleted).
CREATE TABLE card_revisions (
    id         INTEGER PRIMARY KEY,
    card_id    TEXT    NOT NULL,
    path       TEXT    NOT NULL,
    markdown   TEXT    NOT NULL,
    action     TEXT    NOT NULL CHECK (action IN ('save', 'import', 'restore', 'revert', 'delete')),
    user_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX card_revisions_card ON card_revisions (card_id, id);

-- Personal API tokens, stored by their SHA-256 like sessions; a token acts with its user's role.
CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   BLOB    NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL DEFAULT 0,
    revoked_at   INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX api_tokens_user ON api_tokens (user_id);

-- Per-instance settings an admin changes on /admin.
CREATE TABLE instance_settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- +goose Down
DROP TABLE instance_settings;
DROP TABLE api_tokens;
DROP TABLE card_revisions;
DROP TABLE deck_cards;
