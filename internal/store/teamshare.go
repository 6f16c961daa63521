package store

import (
	"context"
	"time"
)

// Sharing is the set of accounts that chose to show their figures to the rest of the team.
func (db *DB) Sharing(ctx context.Context) (map[int64]bool, error) {
	rows, err := db.query(ctx, "SELECT user_id FROM team_share")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// Shares reports whether one account shares its figures.
func (db *DB) Shares(ctx context.Context, userID int64) (bool, error) {
	var n int
	err := db.queryRow(ctx, "SELECT count(*) FROM team_share WHERE user_id = ?", userID).Scan(&n)
	return n > 0, err
}

// SetSharing starts or stops showing an account's figures to the team.
func (db *DB) SetSharing(ctx context.Context, userID int64, share bool, now time.Time) error {
	if !share {
		_, err := db.w.ExecContext(ctx, "DELETE FROM team_share WHERE user_id = ?", userID)
		return err
	}
	_, err := db.w.ExecContext(ctx, `INSERT INTO team_share (user_id, since) VALUES (?, ?) ON CONFLICT DO NOTHING`, userID, ms(now))
	return err
}
