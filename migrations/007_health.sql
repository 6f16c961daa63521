-- +goose Up
-- One row that /readyz rewrites to prove the database still takes writes (read-only file,
-- full disk, a lock held elsewhere), rather than only answering reads.
CREATE TABLE health_probe (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at INTEGER NOT NULL -- unix milliseconds of the last probe
) STRICT;

-- +goose Down
DROP TABLE health_probe;
