-- +goose Up
-- How many new cards the user started today counts distinct card ids: with every column the
-- query names in the index, the count reads the index alone instead of looking up each such
-- answer's row (for a user who started 700 cards today those look-ups were most of a study
-- page's time). SQLite counts an index as covering only if it holds the columns of the
-- partial index's own WHERE too. Still partial: only new cards' study answers are in it.
DROP INDEX review_log_new_study;
CREATE INDEX review_log_new_study ON review_log (user_id, reviewed_at, card_id, state_before, mode, undone)
    WHERE state_before = 0 AND mode = 'study' AND undone = 0;

-- +goose Down
DROP INDEX review_log_new_study;
CREATE INDEX review_log_new_study ON review_log (user_id, reviewed_at)
    WHERE state_before = 0 AND mode = 'study' AND undone = 0;
