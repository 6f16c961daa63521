-- +goose Up
-- The progress page counts a user's answers by day and their retention: with every column
-- those queries name in the index, they read it alone instead of each answer's row.
CREATE INDEX review_log_stats ON review_log (user_id, reviewed_at, undone, state_before, rating, duration_ms);
DROP INDEX review_log_user_time;

-- +goose Down
CREATE INDEX review_log_user_time ON review_log (user_id, reviewed_at);
DROP INDEX review_log_stats;
