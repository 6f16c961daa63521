package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Probe proves the database takes a write: it rewrites the one health_probe row through the
// writer connection, so a read-only file, a full disk or a write lock held by another process
// shows up here instead of as the next user's 500.
func (db *DB) Probe(ctx context.Context, now time.Time) error {
	_, err := db.w.ExecContext(ctx,
		`INSERT INTO health_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`, ms(now))
	return err
}

// QuickCheck runs SQLite's PRAGMA quick_check and returns an error listing the first problems
// it found (nil for a sound file). It reads every page, so it is for start-up, not per request.
func (db *DB) QuickCheck(ctx context.Context) error {
	rows, err := db.w.QueryContext(ctx, "PRAGMA quick_check(10)")
	if err != nil {
		return fmt.Errorf("quick_check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("quick_check: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("quick_check: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("quick_check found %d problem(s):\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	return nil
}
