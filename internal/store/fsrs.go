package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// Fit is the last fit of FSRS weights a user asked for.
type Fit struct {
	Status     string // FitRunning, FitApplied, FitKept or FitFailed
	StartedAt  time.Time
	FinishedAt time.Time
	Reviews    int
	Scored     int
	LossBefore float64 // log loss of the weights in use before the fit
	LossAfter  float64 // log loss of the fitted weights
	Message    string
}

// Fit statuses.
const (
	FitRunning = "running"
	FitApplied = "applied" // better than the weights in use: now in use
	FitKept    = "kept"    // no better: the weights in use were kept
	FitFailed  = "failed"
)

// DecodeParams reads weights stored in Settings.FSRSParams; ok is false for "" or anything
// but a valid vector, which mean the defaults.
func DecodeParams(s string) (w [21]float64, ok bool) {
	var ws []float64
	if s == "" || json.Unmarshal([]byte(s), &ws) != nil {
		return srs.DefaultParams, false
	}
	w, err := srs.ParamsFromSlice(ws)
	if err != nil {
		return srs.DefaultParams, false
	}
	return w, true
}

func encodeParams(w [21]float64) string {
	b, _ := json.Marshal(w)
	return string(b)
}

// FitHistory returns up to limit of the user's latest answers, study and mock, undone ones
// left out, in time order: the optimizer's input.
func (db *DB) FitHistory(ctx context.Context, userID int64, limit int) ([]srs.Answer, error) {
	rows, err := db.query(ctx, `SELECT card_id, reviewed_at, rating FROM (
		SELECT id, card_id, reviewed_at, rating FROM review_log
		WHERE user_id = ? AND undone = 0 ORDER BY reviewed_at DESC, id DESC LIMIT ?)
		ORDER BY reviewed_at, id`, userID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []srs.Answer
	for rows.Next() {
		var a srs.Answer
		var at int64
		if err := rows.Scan(&a.CardID, &at, &a.Rating); err != nil {
			return nil, err
		}
		a.Time = fromMS(at)
		out = append(out, a)
	}
	return out, rows.Err()
}

// FitScoredCount counts the user's answers given on a later day than the same card's previous
// answer: the ones a fit learns from (the same rule as srs, days counted from the previous
// answer's time, up to limit).
func (db *DB) FitScoredCount(ctx context.Context, userID int64, limit int) (int, error) {
	var n int
	err := db.queryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM (
		SELECT reviewed_at - lag(reviewed_at) OVER (PARTITION BY card_id ORDER BY reviewed_at, id) AS gap
		FROM review_log WHERE user_id = ? AND undone = 0)
		WHERE gap >= 86400000 LIMIT ?)`, userID, limit).Scan(&n)
	return n, err
}

// StartFit records that a fit began, unless one is already running (ErrConflict). A run older
// than stale counts as interrupted (the server stopped during it).
func (db *DB) StartFit(ctx context.Context, userID int64, now time.Time, stale time.Duration) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		var status string
		var started int64
		err := tx.QueryRowContext(ctx, `SELECT status, started_at FROM fsrs_fits WHERE user_id = ?`, userID).Scan(&status, &started)
		if err == nil && status == FitRunning && now.Sub(fromMS(started)) < stale {
			return ErrConflict
		}
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO fsrs_fits (user_id, status, started_at) VALUES (?, ?, ?)`,
			userID, FitRunning, ms(now))
		return err
	})
}

// FinishFit records a fit's outcome; with status FitApplied it also puts params in use,
// keeping the weights in use before for RevertFit.
func (db *DB) FinishFit(ctx context.Context, userID int64, f Fit, params [21]float64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		if f.Status == FitApplied {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET fsrs_params_prev = fsrs_params, fsrs_params = ? WHERE id = ?`,
				encodeParams(params), userID); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE fsrs_fits SET status = ?, finished_at = ?, reviews = ?, scored = ?,
			loss_before = ?, loss_after = ?, message = ? WHERE user_id = ?`,
			f.Status, ms(f.FinishedAt), f.Reviews, f.Scored, f.LossBefore, f.LossAfter, f.Message, userID)
		return err
	})
}

// LastFit returns the user's last fit, or ErrNotFound.
func (db *DB) LastFit(ctx context.Context, userID int64) (Fit, error) {
	var f Fit
	var started, finished int64
	err := db.queryRow(ctx, `SELECT status, started_at, finished_at, reviews, scored, loss_before, loss_after, message
		FROM fsrs_fits WHERE user_id = ?`, userID).Scan(&f.Status, &started, &finished, &f.Reviews, &f.Scored,
		&f.LossBefore, &f.LossAfter, &f.Message)
	if errors.Is(err, sql.ErrNoRows) {
		return Fit{}, ErrNotFound
	}
	f.StartedAt, f.FinishedAt = fromMS(started), fromMS(finished)
	return f, err
}

// RevertFit puts the weights in use before the last fit back (the defaults when there were
// none) and forgets the fit.
func (db *DB) RevertFit(ctx context.Context, userID int64) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET fsrs_params = fsrs_params_prev, fsrs_params_prev = '' WHERE id = ?`, userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM fsrs_fits WHERE user_id = ? AND status != ?`, userID, FitRunning)
		return err
	})
}

// PullInDue brings every review card of the user due after the deadline back into the window
// days before it, the day each card gets chosen by pick(cardID, state) (a day count from now,
// which the caller derives from the scheduler's own rule). It returns how many cards moved.
func (db *DB) PullInDue(ctx context.Context, userID int64, deadline time.Time, pick func(id string, c srs.Card) time.Time) (int, error) {
	n := 0
	err := db.tx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT card_id, `+cardCols+` FROM card_states
			WHERE user_id = ? AND state = ? AND due > ?`, userID, int(srs.Review), ms(deadline))
		if err != nil {
			return err
		}
		type move struct {
			id  string
			due time.Time
		}
		var moves []move
		for rows.Next() {
			var id string
			c, err := scanCard(rows, &id)
			if err != nil {
				rows.Close()
				return err
			}
			moves = append(moves, move{id, pick(id, c)})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, m := range moves {
			if _, err := tx.ExecContext(ctx, `UPDATE card_states SET due = ? WHERE user_id = ? AND card_id = ?`,
				ms(m.due), userID, m.id); err != nil {
				return err
			}
		}
		n = len(moves)
		return nil
	})
	return n, err
}
