package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Roles.
const (
	RoleAdmin  = "admin"
	RoleMember = "member"
)

// User is an account with its study settings.
type User struct {
	ID           int64
	Username     string
	PasswordHash string
	Role         string
	Disabled     bool
	CreatedAt    time.Time
	Settings     Settings
	// Theme is the colour theme chosen (ThemeSystem when none). Only SessionUser fills it: every
	// signed-in page shows it, and the session look-up is reused for a second.
	Theme string
}

// IsAdmin reports whether the user may administer the instance.
func (u *User) IsAdmin() bool { return u != nil && u.Role == RoleAdmin }

// Settings are a user's study preferences.
type Settings struct {
	DesiredRetention float64
	NewPerDay        int
	DefaultDepth     string // basics | solid | deeper
	TimeZone         string // IANA name
	HideFromTeam     bool
	InterviewDate    string // YYYY-MM-DD in TimeZone, "" for none
	FSRSParams       string // weights fitted to the user's answers (JSON); "" for the defaults
}

const userCols = `id, username, password_hash, role, disabled, created_at,
	desired_retention, new_per_day, default_depth, timezone, hide_from_team, interview_date, fsrs_params`

func scanUser(row interface{ Scan(...any) error }) (*User, error) {
	var u User
	var created int64
	err := row.Scan(&u.ID, &u.Username, &u.PasswordHash, &u.Role, &u.Disabled, &created,
		&u.Settings.DesiredRetention, &u.Settings.NewPerDay, &u.Settings.DefaultDepth,
		&u.Settings.TimeZone, &u.Settings.HideFromTeam, &u.Settings.InterviewDate, &u.Settings.FSRSParams)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	u.CreatedAt = fromMS(created)
	return &u, nil
}

// CreateUser adds an account. It returns ErrConflict when the name is taken.
func (db *DB) CreateUser(ctx context.Context, username, passwordHash, role string, now time.Time) (*User, error) {
	var u *User
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		u, err = createUser(ctx, tx, username, passwordHash, role, now)
		return err
	})
	return u, err
}

// CreateFirstAdmin creates the admin only while no user exists, so the one-time setup page
// cannot be replayed once someone has claimed the instance.
func (db *DB) CreateFirstAdmin(ctx context.Context, username, passwordHash string, now time.Time) (*User, error) {
	var u *User
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM users").Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return ErrConflict
		}
		var err error
		u, err = createUser(ctx, tx, username, passwordHash, RoleAdmin, now)
		return err
	})
	return u, err
}

func createUser(ctx context.Context, tx *sql.Tx, username, passwordHash, role string, now time.Time) (*User, error) {
	if role != RoleAdmin && role != RoleMember {
		return nil, fmt.Errorf("unknown role %q", role)
	}
	row := tx.QueryRowContext(ctx, `INSERT INTO users (username, password_hash, role, created_at)
		VALUES (?, ?, ?, ?) RETURNING `+userCols, username, passwordHash, role, ms(now))
	u, err := scanUser(row)
	if err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed") {
		return nil, ErrConflict
	}
	return u, err
}

// CountUsers returns how many accounts exist (zero means first-run setup is open).
func (db *DB) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := db.queryRow(ctx, "SELECT count(*) FROM users").Scan(&n)
	return n, err
}

// UserByName looks an account up by name, case-insensitively.
func (db *DB) UserByName(ctx context.Context, username string) (*User, error) {
	return scanUser(db.queryRow(ctx, "SELECT "+userCols+" FROM users WHERE username = ?", username))
}

// UserByID looks an account up by id.
func (db *DB) UserByID(ctx context.Context, id int64) (*User, error) {
	return scanUser(db.queryRow(ctx, "SELECT "+userCols+" FROM users WHERE id = ?", id))
}

// Users lists every account by name.
func (db *DB) Users(ctx context.Context) ([]*User, error) {
	return db.queryUsers(ctx, "SELECT "+userCols+" FROM users ORDER BY username")
}

func (db *DB) queryUsers(ctx context.Context, q string, args ...any) ([]*User, error) {
	rows, err := db.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// SetPassword replaces a user's password hash.
func (db *DB) SetPassword(ctx context.Context, userID int64, passwordHash string, now time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "UPDATE users SET password_hash = ? WHERE id = ?", passwordHash, userID); err != nil {
			return err
		}
		return revokeUserTokens(ctx, tx, userID, now)
	})
}

// SetDisabled disables or re-enables an account; disabling also ends its sessions.
func (db *DB) SetDisabled(ctx context.Context, userID int64, disabled bool, now time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE users SET disabled = ? WHERE id = ?", disabled, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if disabled {
			if _, err = tx.ExecContext(ctx, "DELETE FROM sessions WHERE user_id = ?", userID); err != nil {
				return err
			}
			return revokeUserTokens(ctx, tx, userID, now)
		}
		return nil
	})
}

// UpdateSettings stores a user's study preferences.
func (db *DB) UpdateSettings(ctx context.Context, userID int64, s Settings) error {
	return db.exec(ctx, `UPDATE users SET desired_retention = ?, new_per_day = ?, default_depth = ?,
		timezone = ?, hide_from_team = ?, interview_date = ? WHERE id = ?`,
		s.DesiredRetention, s.NewPerDay, s.DefaultDepth, s.TimeZone, s.HideFromTeam, s.InterviewDate, userID)
}

// exec runs one statement on the writer and maps "no row changed" to ErrNotFound.
func (db *DB) exec(ctx context.Context, q string, args ...any) error {
	res, err := db.w.ExecContext(ctx, q, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return ErrNotFound
	}
	return nil
}
