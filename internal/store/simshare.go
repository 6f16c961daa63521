package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// MaxSimShares bounds the short-link table; anyone may create links, so it cannot grow without end.
const MaxSimShares = 100_000

// ErrSharesFull is returned when the short-link table is at MaxSimShares.
var ErrSharesFull = errors.New("the short-link store is full")

// SimShareTTL is how long a short link lives after it was made or last opened.
const SimShareTTL = 90 * 24 * time.Hour

// simShareTouch: opening a link records the day at most, so reads of a popular link do not
// each write.
const simShareTouch = 24 * time.Hour

// SaveSimShare stores a lab query under its id; saving the same id again is a no-op.
func (db *DB) SaveSimShare(ctx context.Context, id, query string, now time.Time) error {
	var exists int
	err := db.w.QueryRowContext(ctx, "SELECT 1 FROM sim_shares WHERE id = ?", id).Scan(&exists)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	var n int
	if err := db.w.QueryRowContext(ctx, "SELECT count(*) FROM sim_shares").Scan(&n); err != nil {
		return err
	}
	if n >= MaxSimShares {
		if purged, err := db.PurgeUnusedSimShares(ctx, now); err != nil || purged == 0 {
			return errors.Join(ErrSharesFull, err)
		}
	}
	_, err = db.w.ExecContext(ctx, "INSERT INTO sim_shares (id, query, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING", id, query, now.Unix())
	return err
}

// SimShare returns the query stored under id, or ErrNotFound, and notes that the link was
// opened (at most once a day).
func (db *DB) SimShare(ctx context.Context, id string, now time.Time) (string, error) {
	var q string
	var created, used int64
	err := db.r.QueryRowContext(ctx, "SELECT query, created_at, used_at FROM sim_shares WHERE id = ?", id).Scan(&q, &created, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", err
	}
	if now.Unix()-max(created, used) > int64(simShareTouch/time.Second) {
		if _, err := db.w.ExecContext(ctx, "UPDATE sim_shares SET used_at = ? WHERE id = ?", now.Unix(), id); err != nil {
			return "", err
		}
	}
	return q, nil
}

// PurgeUnusedSimShares deletes the short links neither made nor opened within SimShareTTL.
func (db *DB) PurgeUnusedSimShares(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.w.ExecContext(ctx, "DELETE FROM sim_shares WHERE max(created_at, used_at) < ?", now.Add(-SimShareTTL).Unix())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
