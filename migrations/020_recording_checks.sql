-- +goose Up
-- What the background check heard in a recording (internal/hear): the depth it answered, the
-- card's key points at that depth and those heard (bullet indexes, comma-separated), and why a
-- recording was not checked. transcript_status says where the check is: pending, done or
-- unavailable (note says why).
ALTER TABLE recordings ADD COLUMN depth TEXT NOT NULL DEFAULT '';
ALTER TABLE recordings ADD COLUMN points TEXT NOT NULL DEFAULT '';
ALTER TABLE recordings ADD COLUMN heard TEXT NOT NULL DEFAULT '';
ALTER TABLE recordings ADD COLUMN note TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE recordings DROP COLUMN note;
ALTER TABLE recordings DROP COLUMN heard;
ALTER TABLE recordings DROP COLUMN points;
ALTER TABLE recordings DROP COLUMN depth;
