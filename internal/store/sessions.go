package store

import (
	"context"
	"database/sql"
	"time"
)

// CreateSession stores a session by its token digest.
func (db *DB) CreateSession(ctx context.Context, digest []byte, userID int64, now, expires time.Time) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
		VALUES (?, ?, ?, ?)`, digest, userID, ms(now), ms(expires))
	return err
}

// SessionUser returns the enabled user owning an unexpired session, or ErrNotFound.
func (db *DB) SessionUser(ctx context.Context, digest []byte, now time.Time) (*User, error) {
	var theme string
	u, err := scanUser(withTheme{db.queryRow(ctx, sessionUserSQL, digest, ms(now)), &theme})
	if err != nil {
		return nil, err
	}
	u.Theme = theme
	return u, nil
}

// withTheme scans a user row followed by the user's theme.
type withTheme struct {
	row   *sql.Row
	theme *string
}

func (w withTheme) Scan(dest ...any) error { return w.row.Scan(append(dest, w.theme)...) }

var sessionUserSQL = `SELECT ` + prefixed("u.", userCols) + `, coalesce(t.theme, '` + ThemeSystem + `')
	FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN user_theme t ON t.user_id = u.id
	WHERE s.token_hash = ? AND s.expires_at > ? AND u.disabled = 0`

// DeleteSession ends one session (logout).
func (db *DB) DeleteSession(ctx context.Context, digest []byte) error {
	_, err := db.w.ExecContext(ctx, "DELETE FROM sessions WHERE token_hash = ?", digest)
	return err
}

// DeleteUserSessions ends every session of a user ("sign out everywhere").
func (db *DB) DeleteUserSessions(ctx context.Context, userID int64) error {
	_, err := db.w.ExecContext(ctx, "DELETE FROM sessions WHERE user_id = ?", userID)
	return err
}

// PurgeExpiredSessions removes sessions past their expiry.
func (db *DB) PurgeExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.w.ExecContext(ctx, "DELETE FROM sessions WHERE expires_at <= ?", ms(now))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func prefixed(p, cols string) string {
	out := make([]byte, 0, len(cols)+40)
	field := true
	for i := 0; i < len(cols); i++ {
		c := cols[i]
		if field && c != ' ' && c != '\n' && c != '\t' {
			out = append(out, p...)
			field = false
		}
		if c == ',' {
			field = true
		}
		out = append(out, c)
	}
	return string(out)
}
