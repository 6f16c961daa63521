package store

import (
	"context"
	"database/sql"
)

// TimezoneChosen reports whether an account's time zone was ever chosen (by the browser at the
// first sign-in, or by the user).
func (db *DB) TimezoneChosen(ctx context.Context, userID int64) (bool, error) {
	var n int
	err := db.queryRow(ctx, "SELECT count(*) FROM timezone_chosen WHERE user_id = ?", userID).Scan(&n)
	return n > 0, err
}

// ChooseFirstTimezone sets the account's time zone to tz unless one was chosen before, and
// reports whether it did.
func (db *DB) ChooseFirstTimezone(ctx context.Context, userID int64, tz string) (bool, error) {
	set := false
	err := db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "INSERT INTO timezone_chosen (user_id) VALUES (?) ON CONFLICT DO NOTHING", userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		set = true
		_, err = tx.ExecContext(ctx, "UPDATE users SET timezone = ? WHERE id = ?", tz, userID)
		return err
	})
	return set, err
}

// MarkTimezoneChosen records that the user chose their time zone themselves.
func (db *DB) MarkTimezoneChosen(ctx context.Context, userID int64) error {
	_, err := db.w.ExecContext(ctx, "INSERT INTO timezone_chosen (user_id) VALUES (?) ON CONFLICT DO NOTHING", userID)
	return err
}
