-- +goose Up
-- Images of imported cards (Anki packages), stored by the SHA-256 of their bytes, so the same
-- image imported twice is stored once and its URL (/media/<hash>.<ext>) never changes.
CREATE TABLE media (
    hash       TEXT    PRIMARY KEY,              -- hex SHA-256 of data
    type       TEXT    NOT NULL,                 -- Content-Type: image/png, image/jpeg, ...
    data       BLOB    NOT NULL,
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL
) STRICT;

-- +goose Down
DROP TABLE media;
