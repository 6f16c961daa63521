-- +goose Up
-- Short links to lab scenarios: /sim/s/{id}, where id is derived from the hash of the canonical
-- query, so sharing the same scenario twice gives the same link and stores one row.
CREATE TABLE sim_shares (
    id         TEXT    PRIMARY KEY CHECK (length(id) = 16),
    query      TEXT    NOT NULL CHECK (length(query) <= 4096),
    created_at INTEGER NOT NULL
) STRICT;

-- +goose Down
DROP TABLE sim_shares;
