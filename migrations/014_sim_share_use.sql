-- +goose Up
-- When a short link was last opened (unix seconds; 0: never), so links nobody opens expire and
-- the table's cap cannot end short links for good.
ALTER TABLE sim_shares ADD COLUMN used_at INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE sim_shares DROP COLUMN used_at;
