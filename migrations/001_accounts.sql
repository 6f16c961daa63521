-- +goose Up
CREATE TABLE users (
    id                INTEGER PRIMARY KEY,
    username          TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    password_hash     TEXT    NOT NULL,
    role              TEXT    NOT NULL CHECK (role IN ('admin', 'member')),
    disabled          INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,          -- unix milliseconds, UTC
    -- study settings, one row per user keeps reads to a single lookup
    desired_retention REAL    NOT NULL DEFAULT 0.9,
    new_per_day       INTEGER NOT NULL DEFAULT 10,
    default_depth     TEXT    NOT NULL DEFAULT 'basics' CHECK (default_depth IN ('basics', 'solid', 'deeper')),
    timezone          TEXT    NOT NULL DEFAULT 'UTC',
    hide_from_team    INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Sessions are stored by the SHA-256 of their token, so a leaked database holds no usable cookie.
CREATE TABLE sessions (
    token_hash BLOB    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_user ON sessions (user_id);

-- +goose Down
DROP TABLE sessions;
DROP TABLE users;
