package store

import (
	"context"
	"database/sql"
	"time"
)

// SetSuspended takes a card out of the user's study (suspended) or puts it back.
func (db *DB) SetSuspended(ctx context.Context, userID int64, cardID string, suspended bool, now time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error { return setSuspended(ctx, tx, userID, cardID, suspended, now) })
}

func setSuspended(ctx context.Context, tx *sql.Tx, userID int64, cardID string, suspended bool, now time.Time) error {
	var err error
	if suspended {
		_, err = tx.ExecContext(ctx, `INSERT INTO suspended_cards (user_id, card_id, suspended_at) VALUES (?, ?, ?)
			ON CONFLICT (user_id, card_id) DO NOTHING`, userID, cardID, ms(now))
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM suspended_cards WHERE user_id = ? AND card_id = ?`, userID, cardID)
	}
	return err
}

// Suspended returns the ids of the cards the user suspended.
func (db *DB) Suspended(ctx context.Context, userID int64) (map[string]bool, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT card_id FROM suspended_cards WHERE user_id = ?`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// IsSuspended reports whether the user suspended the card.
func (db *DB) IsSuspended(ctx context.Context, userID int64, cardID string) (bool, error) {
	var one int
	err := db.r.QueryRowContext(ctx, `SELECT 1 FROM suspended_cards WHERE user_id = ? AND card_id = ?`, userID, cardID).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return err == nil, err
}
