package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Token is a personal API token's record; the token itself is never stored.
type Token struct {
	ID        int64
	Name      string
	CreatedAt time.Time
	LastUsed  time.Time
	RevokedAt time.Time
}

// CreateToken stores a new token by its digest.
func (db *DB) CreateToken(ctx context.Context, userID int64, name string, digest []byte, now time.Time) (int64, error) {
	var id int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO api_tokens (user_id, name, token_hash, created_at)
			VALUES (?, ?, ?, ?) RETURNING id`, userID, name, digest, ms(now)).Scan(&id)
	})
	return id, err
}

// ErrRevoked is returned for a token that existed but was revoked.
var ErrRevoked = errors.New("token revoked")

// UserByToken returns the enabled user a token belongs to: ErrNotFound for an unknown token or
// a disabled account, ErrRevoked for a revoked one. Use is recorded at most once a minute.
func (db *DB) UserByToken(ctx context.Context, digest []byte, now time.Time) (*User, error) {
	var id, userID, revoked, used int64
	err := db.r.QueryRowContext(ctx, "SELECT id, user_id, revoked_at, last_used_at FROM api_tokens WHERE token_hash = ?", digest).
		Scan(&id, &userID, &revoked, &used)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if revoked != 0 {
		return nil, ErrRevoked
	}
	u, err := db.UserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	if u.Disabled {
		return nil, ErrNotFound
	}
	if ms(now)-used > time.Minute.Milliseconds() {
		if err := db.exec(ctx, "UPDATE api_tokens SET last_used_at = ? WHERE id = ?", ms(now), id); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// Tokens lists a user's tokens, newest first.
func (db *DB) Tokens(ctx context.Context, userID int64) ([]Token, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT id, name, created_at, last_used_at, revoked_at FROM api_tokens
		WHERE user_id = ? ORDER BY id DESC`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		var t Token
		var c, u, r int64
		if err := rows.Scan(&t.ID, &t.Name, &c, &u, &r); err != nil {
			return nil, err
		}
		t.CreatedAt, t.LastUsed, t.RevokedAt = fromMS(c), fromMS(u), fromMS(r)
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeToken revokes one of the user's tokens; ErrNotFound if it is not theirs or already revoked.
func (db *DB) RevokeToken(ctx context.Context, userID, tokenID int64, now time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at = 0", ms(now), tokenID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// revokeUserTokens ends every live token of a user (in tx): a token is as good as the
// password, so whatever replaces or locks the password ends the tokens too.
func revokeUserTokens(ctx context.Context, tx *sql.Tx, userID int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, "UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at = 0", ms(now), userID)
	return err
}

// TokenOwner is a token with its user's name, for the admin page.
type TokenOwner struct {
	Token
	UserID   int64
	Username string
}

// LiveTokens lists every token not revoked, with its owner, newest first.
func (db *DB) LiveTokens(ctx context.Context) ([]TokenOwner, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT t.id, t.name, t.created_at, t.last_used_at, u.id, u.username
		FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.revoked_at = 0 ORDER BY t.id DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TokenOwner
	for rows.Next() {
		var t TokenOwner
		var c, u int64
		if err := rows.Scan(&t.ID, &t.Name, &c, &u, &t.UserID, &t.Username); err != nil {
			return nil, err
		}
		t.CreatedAt, t.LastUsed = fromMS(c), fromMS(u)
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeAnyToken revokes a token whoever owns it (an admin's action); ErrNotFound if there is
// no such live token.
func (db *DB) RevokeAnyToken(ctx context.Context, tokenID int64, now time.Time) error {
	return db.exec(ctx, "UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND revoked_at = 0", ms(now), tokenID)
}
