package store

import (
	"context"
	"time"
)

// CreateSession stores a session by its token digest.
func (db *DB) CreateSession(ctx context.Context, digest []byte, userID int64, now, expires time.Time) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at)
		VALUES (?, ?, ?, ?)`, digest, userID, ms(now), ms(expires))
	return err
}

// SessionUser returns the enabled user owning an unexpired session, or ErrNotFound.
// Recent answers come from a short-lived cache (sessioncache.go).
func (db *DB) SessionUser(ctx context.Context, digest []byte, now time.Time) (*User, error) {
	u, gen := db.sessions.get(digest, now)
	if u != nil {
		return u, nil
	}
	var expires int64
	var theme string
	u, err := scanUser(withExpiry{db.queryRow(ctx, sessionUserSQL, digest, ms(now)), &expires, &theme})
	if err != nil {
		return nil, err
	}
	u.Theme = theme
	db.sessions.put(digest, u, now, fromMS(expires), gen)
	return u, nil
}

var sessionUserSQL = `SELECT ` + prefixed("u.", userCols) + `, s.expires_at, coalesce(t.theme, '` + ThemeSystem + `')
	FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN user_theme t ON t.user_id = u.id
	WHERE s.token_hash = ? AND s.expires_at > ? AND u.disabled = 0`

// DeleteSession ends one session (logout).
func (db *DB) DeleteSession(ctx context.Context, digest []byte) error {
	defer db.sessions.clear()
	_, err := db.w.ExecContext(ctx, "DELETE FROM sessions WHERE token_hash = ?", digest)
	return err
}

// DeleteUserSessions ends every session of a user ("sign out everywhere").
func (db *DB) DeleteUserSessions(ctx context.Context, userID int64) error {
	defer db.sessions.clear()
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
