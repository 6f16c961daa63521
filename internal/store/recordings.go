package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"
)

// DefaultRecordingsKeep is how many recordings per card a user keeps unless they choose.
const DefaultRecordingsKeep = 5

// Recording is a spoken answer without its audio.
type Recording struct {
	ID            int64
	UserID        int64
	CardID        string
	CreatedAt     time.Time
	Mode          string // ModeStudy or ModeMock
	ReviewID      int64  // 0 until the answer is rated
	MockSessionID int64  // 0 in study
	MockPosition  int
	FollowUp      bool
	MIME          string
	Size          int64
	Spoken, Wall  time.Duration
	Target        time.Duration
	Transcript    string
	// TranscriptStatus is none, pending, done or unavailable: where the background check is.
	TranscriptStatus string
	Depth            string // the depth answered: basics, solid or deeper
	Points, Heard    []int  // the depth's key points (bullet indexes) and those heard, once checked
	Note             string // why the recording was not checked, when unavailable
}

const recordingCols = `id, user_id, card_id, created_at, mode, review_id, mock_session_id,
	mock_position, followup, mime, size_bytes, spoken_ms, wall_ms, target_ms, transcript, transcript_status,
	depth, points, heard, note`

func scanRecording(row interface{ Scan(...any) error }, extra ...any) (Recording, error) {
	var r Recording
	var at, spoken, wall, target int64
	var points, heard string
	err := row.Scan(append([]any{&r.ID, &r.UserID, &r.CardID, &at, &r.Mode, &r.ReviewID, &r.MockSessionID,
		&r.MockPosition, &r.FollowUp, &r.MIME, &r.Size, &spoken, &wall, &target, &r.Transcript, &r.TranscriptStatus,
		&r.Depth, &points, &heard, &r.Note}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return Recording{}, ErrNotFound
	}
	r.CreatedAt, r.Spoken, r.Wall, r.Target = fromMS(at), msDur(spoken), msDur(wall), msDur(target)
	r.Points, r.Heard = parseInts(points), parseInts(heard)
	return r, err
}

// AddRecording stores a recording with its audio and, in the same transaction, drops the user's
// oldest recordings of that card beyond their retention setting. It returns the new id.
func (db *DB) AddRecording(ctx context.Context, r Recording, audio []byte) (int64, error) {
	var id int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		status := r.TranscriptStatus
		if status == "" {
			status = "none"
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO recordings (user_id, card_id, created_at, mode, review_id,
				mock_session_id, mock_position, followup, mime, size_bytes, spoken_ms, wall_ms, target_ms,
				transcript_status, depth, note, audio)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			r.UserID, r.CardID, ms(r.CreatedAt), r.Mode, r.ReviewID, r.MockSessionID, r.MockPosition, r.FollowUp,
			r.MIME, len(audio), r.Spoken.Milliseconds(), r.Wall.Milliseconds(), r.Target.Milliseconds(), status,
			r.Depth, r.Note, audio).Scan(&id)
		if err != nil {
			return err
		}
		keep, err := recordingsKeep(ctx, tx, r.UserID)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM recordings WHERE user_id = ? AND card_id = ? AND id NOT IN
			(SELECT id FROM recordings WHERE user_id = ? AND card_id = ? ORDER BY id DESC LIMIT ?)`,
			r.UserID, r.CardID, r.UserID, r.CardID, keep)
		return err
	})
	return id, err
}

// RecordingAudio returns a user's recording with its audio; ErrNotFound for a recording that is
// not theirs, whoever asks.
func (db *DB) RecordingAudio(ctx context.Context, userID, id int64) (Recording, []byte, error) {
	var audio []byte
	r, err := scanRecording(db.r.QueryRowContext(ctx, `SELECT `+recordingCols+`, audio FROM recordings
		WHERE id = ? AND user_id = ?`, id, userID), &audio)
	if err != nil {
		return Recording{}, nil, err
	}
	return r, audio, nil
}

// DeleteRecording removes a user's recording; ErrNotFound when it is not theirs.
func (db *DB) DeleteRecording(ctx context.Context, userID, id int64) error {
	return db.exec(ctx, `DELETE FROM recordings WHERE id = ? AND user_id = ?`, id, userID)
}

// AttachRecording links a user's recording to the review its answer was rated in.
func (db *DB) AttachRecording(ctx context.Context, userID, id, reviewID int64) error {
	return db.exec(ctx, `UPDATE recordings SET review_id = ? WHERE id = ? AND user_id = ?`, reviewID, id, userID)
}

// CardRecordings lists a user's recordings of a card, oldest first, without audio.
func (db *DB) CardRecordings(ctx context.Context, userID int64, cardID string) ([]Recording, error) {
	return db.recordings(ctx, `SELECT `+recordingCols+` FROM recordings WHERE user_id = ? AND card_id = ? ORDER BY id`, userID, cardID)
}

// MockRecordings lists the recordings of a user's mock session, in question order, newest last.
func (db *DB) MockRecordings(ctx context.Context, userID, sessionID int64) ([]Recording, error) {
	return db.recordings(ctx, `SELECT `+recordingCols+` FROM recordings WHERE user_id = ? AND mock_session_id = ?
		ORDER BY mock_position, id`, userID, sessionID)
}

func (db *DB) recordings(ctx context.Context, q string, args ...any) ([]Recording, error) {
	rows, err := db.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Recording
	for rows.Next() {
		r, err := scanRecording(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// SetTranscript stores the outcome of transcribing a recording: status done or unavailable.
func (db *DB) SetTranscript(ctx context.Context, id int64, status, text string) error {
	return db.SetCheck(ctx, id, Recording{TranscriptStatus: status, Transcript: text})
}

// SetCheck stores the outcome of checking a recording: its status (done or unavailable),
// transcript, key points and those heard, and the note saying why it was not checked.
func (db *DB) SetCheck(ctx context.Context, id int64, c Recording) error {
	var userID int64
	err := db.w.QueryRowContext(ctx, `UPDATE recordings SET transcript_status = ?, transcript = ?, points = ?,
		heard = ?, note = ? WHERE id = ? RETURNING user_id`, c.TranscriptStatus, c.Transcript, joinInts(c.Points),
		joinInts(c.Heard), c.Note, id).Scan(&userID)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// PendingTranscripts lists recordings waiting for a transcript, oldest first.
func (db *DB) PendingTranscripts(ctx context.Context, limit int) ([]Recording, error) {
	return db.recordings(ctx, `SELECT `+recordingCols+` FROM recordings WHERE transcript_status = 'pending'
		ORDER BY id LIMIT ?`, limit)
}

// RecordingsKeep is how many recordings per card the user keeps.
func (db *DB) RecordingsKeep(ctx context.Context, userID int64) (int, error) {
	return recordingsKeep(ctx, db.r, userID)
}

// rowQuerier is a pool or a transaction.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

func recordingsKeep(ctx context.Context, q rowQuerier, userID int64) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT keep FROM recording_settings WHERE user_id = ?`, userID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultRecordingsKeep, nil
	}
	return n, err
}

// SetRecordingsKeep stores the user's retention and applies it to every card at once.
func (db *DB) SetRecordingsKeep(ctx context.Context, userID int64, keep int) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO recording_settings (user_id, keep) VALUES (?, ?)
			ON CONFLICT (user_id) DO UPDATE SET keep = excluded.keep`, userID, keep); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM recordings WHERE user_id = ? AND id IN (
			SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY card_id ORDER BY id DESC) AS n
				FROM recordings WHERE user_id = ?) WHERE n > ?)`, userID, userID, keep)
		return err
	})
}

// UserRecordingBytes is the audio a user keeps, in bytes (the recordings quota counts it).
func (db *DB) UserRecordingBytes(ctx context.Context, userID int64) (int64, error) {
	var n int64
	err := db.r.QueryRowContext(ctx, `SELECT coalesce(sum(size_bytes), 0) FROM recordings WHERE user_id = ?`, userID).Scan(&n)
	return n, err
}

// Recording returns a user's recording without its audio; ErrNotFound when it is not theirs.
func (db *DB) Recording(ctx context.Context, userID, id int64) (Recording, error) {
	return scanRecording(db.r.QueryRowContext(ctx, `SELECT `+recordingCols+` FROM recordings
		WHERE id = ? AND user_id = ?`, id, userID))
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

func parseInts(s string) []int {
	if s == "" {
		return nil
	}
	var out []int
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(p); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// UserRecordings lists all of a user's recordings without audio, oldest first (the progress
// page measures speaking over them; a user keeps at most a few per card).
func (db *DB) UserRecordings(ctx context.Context, userID int64) ([]Recording, error) {
	return db.recordings(ctx, `SELECT `+recordingCols+` FROM recordings WHERE user_id = ? ORDER BY id`, userID)
}
