-- +goose Up
-- A user's colour theme when it is not the device's (no row: follow prefers-color-scheme). Its
-- own table, so the users row and its column list stay as they are.
CREATE TABLE user_theme (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    theme   TEXT    NOT NULL CHECK (theme IN ('light', 'dark'))
) STRICT;

-- +goose Down
DROP TABLE user_theme;
