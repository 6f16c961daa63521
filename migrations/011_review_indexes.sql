-- +goose Up
-- The study page asks for the user's latest study answer (what `u` would undo) and how many new
-- cards the user started today. Without these, the first scanned and sorted every answer the
-- user ever gave, and the second every answer of the day.
CREATE INDEX review_log_user_id ON review_log (user_id, id);
CREATE INDEX review_log_new_study ON review_log (user_id, reviewed_at)
    WHERE state_before = 0 AND mode = 'study' AND undone = 0;

-- +goose Down
DROP INDEX review_log_new_study;
DROP INDEX review_log_user_id;
