-- +goose Up
-- Invitations and password resets are one-time links. Only the SHA-256 of each token is kept, so
-- a copy of the database cannot be used to sign up or take over an account.
CREATE TABLE invites (
    token_hash BLOB    PRIMARY KEY,
    role       TEXT    NOT NULL CHECK (role IN ('admin', 'member')),
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,          -- unix milliseconds, UTC
    expires_at INTEGER NOT NULL,
    used_at    INTEGER NOT NULL DEFAULT 0, -- 0 while unused
    used_by    INTEGER REFERENCES users (id) ON DELETE SET NULL
) STRICT;

CREATE TABLE password_resets (
    token_hash BLOB    PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX password_resets_user ON password_resets (user_id);

-- +goose Down
DROP TABLE password_resets;
DROP TABLE invites;
