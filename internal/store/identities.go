package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"
)

// UserByIdentity returns the account an outside identity (OpenID Connect issuer and subject,
// or the login proxy's user) signed in as before, or ErrNotFound.
func (db *DB) UserByIdentity(ctx context.Context, issuer, subject string) (*User, error) {
	return scanUser(db.queryRow(ctx, "SELECT "+prefixed("u.", userCols)+` FROM user_identities i
		JOIN users u ON u.id = i.user_id WHERE i.issuer = ? AND i.subject = ?`, issuer, subject))
}

// UserByEmail returns the account holding an email (case-insensitive), or ErrNotFound.
func (db *DB) UserByEmail(ctx context.Context, email string) (*User, error) {
	return scanUser(db.queryRow(ctx, "SELECT "+prefixed("u.", userCols)+` FROM user_emails e
		JOIN users u ON u.id = e.user_id WHERE e.email = ?`, email))
}

// LinkIdentity records that an outside identity signs in as userID.
func (db *DB) LinkIdentity(ctx context.Context, issuer, subject string, userID int64, now time.Time) error {
	_, err := db.w.ExecContext(ctx, `INSERT INTO user_identities (issuer, subject, user_id, created_at)
		VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, issuer, subject, userID, ms(now))
	return err
}

// ExternalAccount is a new account for an outside identity.
type ExternalAccount struct {
	Issuer, Subject string
	Username        string // proposed; a number is added while it is taken
	Email           string // kept when no other account holds it ("" for none)
	Role            string
	// AdminIfFirst makes the account an admin when no account exists yet.
	AdminIfFirst bool
}

// CreateExternalUser makes an account without a password (it signs in only from outside),
// links the identity and keeps the email, in one transaction.
func (db *DB) CreateExternalUser(ctx context.Context, a ExternalAccount, now time.Time) (*User, error) {
	var u *User
	err := db.tx(ctx, func(tx *sql.Tx) error {
		role := a.Role
		if a.AdminIfFirst {
			var n int
			if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM users").Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				role = RoleAdmin
			}
		}
		var err error
		for i := 1; i <= 50; i++ {
			name := a.Username
			if i > 1 {
				name += strconv.Itoa(i)
			}
			u, err = createUser(ctx, tx, name, "", role, now)
			if !errors.Is(err, ErrConflict) {
				break
			}
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_identities (issuer, subject, user_id, created_at)
			VALUES (?, ?, ?, ?)`, a.Issuer, a.Subject, u.ID, ms(now)); err != nil {
			return err
		}
		if a.Email != "" {
			_, err = tx.ExecContext(ctx, `INSERT INTO user_emails (user_id, email) VALUES (?, ?) ON CONFLICT DO NOTHING`, u.ID, a.Email)
		}
		return err
	})
	return u, err
}

// SetRole changes an account's role, except that the last enabled admin stays one (so a
// provider's group change cannot leave the instance without an administrator). It reports
// the role the account has afterwards.
func (db *DB) SetRole(ctx context.Context, userID int64, role string) (string, error) {
	if role != RoleAdmin && role != RoleMember {
		return "", errors.New("unknown role " + role)
	}
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if role == RoleMember {
			var others int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE role = 'admin' AND disabled = 0 AND id <> ?`, userID).Scan(&others); err != nil {
				return err
			}
			if others == 0 {
				role = RoleAdmin
			}
		}
		_, err := tx.ExecContext(ctx, "UPDATE users SET role = ? WHERE id = ?", role, userID)
		return err
	})
	return role, err
}

// SetEmail sets ("" removes) an account's email; ErrConflict when another account holds it.
func (db *DB) SetEmail(ctx context.Context, userID int64, email string) error {
	email = strings.TrimSpace(email)
	if email == "" {
		_, err := db.w.ExecContext(ctx, "DELETE FROM user_emails WHERE user_id = ?", userID)
		return err
	}
	_, err := db.w.ExecContext(ctx, `INSERT INTO user_emails (user_id, email) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET email = excluded.email`, userID, email)
	if err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed") {
		return ErrConflict
	}
	return err
}

// Emails maps each account with an email to it.
func (db *DB) Emails(ctx context.Context) (map[int64]string, error) {
	rows, err := db.query(ctx, "SELECT user_id, email FROM user_emails")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var e string
		if err := rows.Scan(&id, &e); err != nil {
			return nil, err
		}
		out[id] = e
	}
	return out, rows.Err()
}
