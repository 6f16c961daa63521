-- +goose Up
-- Spoken answers, kept in the database so `rehearse backup` covers them. A recording belongs to
-- one user and one card; it is attached to the review (study) or the mock question it answered.
CREATE TABLE recordings (
    id                INTEGER PRIMARY KEY,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    card_id           TEXT    NOT NULL,
    created_at        INTEGER NOT NULL,             -- unix ms, UTC
    mode              TEXT    NOT NULL CHECK (mode IN ('study', 'mock')),
    review_id         INTEGER NOT NULL DEFAULT 0,   -- review_log row once the answer is rated, 0 before
    mock_session_id   INTEGER NOT NULL DEFAULT 0,   -- mock_sessions row, 0 in study
    mock_position     INTEGER NOT NULL DEFAULT -1,
    followup          INTEGER NOT NULL DEFAULT 0,   -- 1: the answer to the follow-up
    mime              TEXT    NOT NULL,             -- from the content, not the upload's name
    size_bytes        INTEGER NOT NULL,
    spoken_ms         INTEGER NOT NULL,             -- voiced time measured in the browser
    wall_ms           INTEGER NOT NULL,             -- from start to stop
    target_ms         INTEGER NOT NULL,             -- the tier's target when it was recorded
    transcript        TEXT    NOT NULL DEFAULT '',
    transcript_status TEXT    NOT NULL DEFAULT 'none'
        CHECK (transcript_status IN ('none', 'pending', 'done', 'unavailable')),
    audio             BLOB    NOT NULL              -- last, so listings never read it
) STRICT;
CREATE INDEX recordings_user_card ON recordings (user_id, card_id, id);
CREATE INDEX recordings_mock ON recordings (mock_session_id, mock_position) WHERE mock_session_id > 0;

-- How many recordings per card a user keeps (the newest); no row means the default, 5.
CREATE TABLE recording_settings (
    user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    keep    INTEGER NOT NULL CHECK (keep BETWEEN 1 AND 50)
) STRICT;

-- +goose Down
DROP TABLE recording_settings;
DROP TABLE recordings;
