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
		return ErrSharesFull
	}
	_, err = db.w.ExecContext(ctx, "INSERT INTO sim_shares (id, query, created_at) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING", id, query, now.Unix())
	return err
}

// SimShare returns the query stored under id, or ErrNotFound.
func (db *DB) SimShare(ctx context.Context, id string) (string, error) {
	var q string
	err := db.r.QueryRowContext(ctx, "SELECT query FROM sim_shares WHERE id = ?", id).Scan(&q)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return q, err
}
