package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/rehearse/rehearse/internal/pair"
)

const pairCols = `id, code, interviewer_id, candidate_id, card_id, target_ms, state, created_at,
	started_at, ended_at, notes, level, pitfalls_hit`

func scanPair(row interface{ Scan(...any) error }) (*pair.Session, error) {
	var s pair.Session
	var target, created, started, ended int64
	var state, hit string
	err := row.Scan(&s.ID, &s.Code, &s.Interviewer, &s.Candidate, &s.CardID, &target, &state, &created,
		&started, &ended, &s.Notes, &s.Level, &hit)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	s.Target, s.State, s.CreatedAt = time.Duration(target)*time.Millisecond, pair.State(state), fromMS(created)
	if started != 0 {
		s.StartedAt = fromMS(started)
	}
	if ended != 0 {
		s.EndedAt = fromMS(ended)
	}
	json.Unmarshal([]byte(hit), &s.PitfallsHit)
	return &s, nil
}

// CreatePair stores a new pair session and returns it with its id.
func (db *DB) CreatePair(ctx context.Context, s pair.Session) (*pair.Session, error) {
	return scanPair(db.w.QueryRowContext(ctx, `INSERT INTO pair_sessions
		(code, interviewer_id, candidate_id, card_id, target_ms, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		RETURNING `+pairCols, s.Code, s.Interviewer, s.Candidate, s.CardID, s.Target.Milliseconds(), string(s.State), ms(s.CreatedAt)))
}

// PairByCode returns a session by its code, or ErrNotFound.
func (db *DB) PairByCode(ctx context.Context, code string) (*pair.Session, error) {
	return scanPair(db.queryRow(ctx, "SELECT "+pairCols+" FROM pair_sessions WHERE code = ?", code))
}

// PairsOf lists the sessions a user took part in, newest first (at most limit).
func (db *DB) PairsOf(ctx context.Context, userID int64, limit int) ([]*pair.Session, error) {
	rows, err := db.query(ctx, "SELECT "+pairCols+` FROM pair_sessions
		WHERE interviewer_id = ? OR candidate_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, userID, userID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*pair.Session
	for rows.Next() {
		s, err := scanPair(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// SavePair writes a session's step (started, cancelled) if it is still at from: ErrConflict when
// another request moved it first.
func (db *DB) SavePair(ctx context.Context, s pair.Session, from pair.State) error {
	res, err := db.w.ExecContext(ctx, `UPDATE pair_sessions SET state = ?, started_at = ?, ended_at = ?
		WHERE id = ? AND state = ?`, string(s.State), msOrZero(s.StartedAt), msOrZero(s.EndedAt), s.ID, string(from))
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrConflict
	}
	return nil
}

// FinishPair stores the result and, in the same transaction, a finished one-question mock
// session of the candidate's holding it, so it counts in their mock history.
func (db *DB) FinishPair(ctx context.Context, s pair.Session, seed int64) error {
	hit, _ := json.Marshal(s.PitfallsHit)
	used := s.Used(s.EndedAt)
	return db.tx(ctx, func(tx *sql.Tx) error {
		var mockID int64
		err := tx.QueryRowContext(ctx, `INSERT INTO mock_sessions (user_id, created_at, seed, n, depth, clock,
			target_ms, record_reviews, status, finished_at) VALUES (?, ?, ?, 1, ?, 'soft', ?, 0, 'finished', ?) RETURNING id`,
			s.Candidate, ms(s.StartedAt), seed, s.Depth(), s.Target.Milliseconds(), ms(s.EndedAt)).Scan(&mockID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO mock_answers (session_id, position, card_id, target_ms, shown_at,
			answered_at, used_ms, pitfalls_hit, checked, rating, rated_at) VALUES (?, 0, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
			mockID, s.CardID, s.Target.Milliseconds(), ms(s.StartedAt), ms(s.EndedAt), used.Milliseconds(), string(hit),
			s.Rating(), ms(s.EndedAt)); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE pair_sessions SET state = 'done', ended_at = ?, notes = ?, level = ?,
			pitfalls_hit = ?, mock_session_id = ? WHERE id = ? AND state = 'running'`,
			ms(s.EndedAt), s.Notes, s.Level, string(hit), mockID, s.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrConflict
		}
		return nil
	})
}

func msOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return ms(t)
}
