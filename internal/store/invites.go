package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Invite is a sign-up link as the admin page lists it; the token itself is never stored.
type Invite struct {
	ID        int64  // the row, for revoking
	Note      string // whom it is for, as the admin typed it
	RevokedAt time.Time
	Role      string
	CreatedBy string // username of the admin who created it ("" if since deleted)
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    time.Time // zero while unused
	UsedBy    string
}

// Pending reports whether the invite can still be used at now.
func (i Invite) Pending(now time.Time) bool {
	return i.UsedAt.IsZero() && i.RevokedAt.IsZero() && now.Before(i.ExpiresAt)
}

// CreateInvite stores a single-use invite by its token digest.
func (db *DB) CreateInvite(ctx context.Context, digest []byte, role string, createdBy int64, now, expires time.Time) error {
	return db.CreateInvites(ctx, []NewInvite{{Digest: digest}}, role, createdBy, now, expires)
}

// NewInvite is one invite of a batch: its token digest and whom it is for.
type NewInvite struct {
	Digest []byte
	Note   string
}

// CreateInvites stores several single-use invites with one role and expiry, all or none.
func (db *DB) CreateInvites(ctx context.Context, list []NewInvite, role string, createdBy int64, now, expires time.Time) error {
	if role != RoleAdmin && role != RoleMember {
		return fmt.Errorf("unknown role %q", role)
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		for _, inv := range list {
			if _, err := tx.ExecContext(ctx, `INSERT INTO invites (token_hash, role, note, created_by, created_at, expires_at)
				VALUES (?, ?, ?, ?, ?, ?)`, inv.Digest, role, inv.Note, createdBy, ms(now), ms(expires)); err != nil {
				return err
			}
		}
		return nil
	})
}

// RevokeInvite withdraws an unused invite; ErrNotFound when there is no such unused invite.
func (db *DB) RevokeInvite(ctx context.Context, id int64, now time.Time) error {
	return db.exec(ctx, "UPDATE invites SET revoked_at = ? WHERE rowid = ? AND used_at = 0 AND revoked_at = 0", ms(now), id)
}

// InviteByDigest returns a usable invite: ErrNotFound when it is unknown, used or expired, so a
// caller cannot tell which.
func (db *DB) InviteByDigest(ctx context.Context, digest []byte, now time.Time) (*Invite, error) {
	var inv Invite
	var created, expires int64
	err := db.queryRow(ctx, `SELECT role, created_at, expires_at FROM invites
		WHERE token_hash = ? AND used_at = 0 AND revoked_at = 0 AND expires_at > ?`, digest, ms(now)).Scan(&inv.Role, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	inv.CreatedAt, inv.ExpiresAt = fromMS(created), fromMS(expires)
	return &inv, nil
}

// RedeemInvite creates the account an invite allows and uses the invite up, in one transaction
// so two people racing with the same link cannot both sign up. ErrNotFound: the invite is not
// usable; ErrConflict: the name is taken (the invite stays usable).
func (db *DB) RedeemInvite(ctx context.Context, digest []byte, username, passwordHash string, now time.Time) (*User, error) {
	var u *User
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var role string
		err := tx.QueryRowContext(ctx, `SELECT role FROM invites
			WHERE token_hash = ? AND used_at = 0 AND revoked_at = 0 AND expires_at > ?`, digest, ms(now)).Scan(&role)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if u, err = createUser(ctx, tx, username, passwordHash, role, now); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, "UPDATE invites SET used_at = ?, used_by = ? WHERE token_hash = ?", ms(now), u.ID, digest)
		return err
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// Invites lists invites created since `since`, newest first.
func (db *DB) Invites(ctx context.Context, since time.Time) ([]Invite, error) {
	rows, err := db.query(ctx, `SELECT i.rowid, i.note, i.revoked_at, i.role, coalesce(c.username, ''), i.created_at, i.expires_at,
			i.used_at, coalesce(u.username, '')
		FROM invites i LEFT JOIN users c ON c.id = i.created_by LEFT JOIN users u ON u.id = i.used_by
		WHERE i.created_at >= ? ORDER BY i.created_at DESC, i.rowid DESC`, ms(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Invite
	for rows.Next() {
		var inv Invite
		var created, expires, used, revoked int64
		if err := rows.Scan(&inv.ID, &inv.Note, &revoked, &inv.Role, &inv.CreatedBy, &created, &expires, &used, &inv.UsedBy); err != nil {
			return nil, err
		}
		inv.CreatedAt, inv.ExpiresAt, inv.UsedAt = fromMS(created), fromMS(expires), fromMS(used)
		if revoked != 0 {
			inv.RevokedAt = fromMS(revoked)
		}
		out = append(out, inv)
	}
	return out, rows.Err()
}

// CreateReset stores a one-time password-reset link for a user. Older unused links for the same
// user stop working: only the newest one the admin handed out is valid. The user's API tokens
// end: a reset means the password is lost or taken, and so may be whatever it made.
func (db *DB) CreateReset(ctx context.Context, digest []byte, userID int64, now, expires time.Time) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "DELETE FROM password_resets WHERE user_id = ? AND used_at = 0", userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
			VALUES (?, ?, ?, ?)`, digest, userID, ms(now), ms(expires))
		if err != nil && isForeignKey(err) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return revokeUserTokens(ctx, tx, userID, now)
	})
}

// ResetUser returns the enabled user a usable reset link belongs to, or ErrNotFound.
func (db *DB) ResetUser(ctx context.Context, digest []byte, now time.Time) (*User, error) {
	return scanUser(db.queryRow(ctx, `SELECT `+prefixed("u.", userCols)+`
		FROM password_resets p JOIN users u ON u.id = p.user_id
		WHERE p.token_hash = ? AND p.used_at = 0 AND p.expires_at > ? AND u.disabled = 0`, digest, ms(now)))
}

// RedeemReset sets a new password through a reset link, uses the link up and ends every session
// and API token of the account (whoever knew the old password is signed out).
func (db *DB) RedeemReset(ctx context.Context, digest []byte, passwordHash string, now time.Time) (*User, error) {
	var u *User
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		u, err = scanUser(tx.QueryRowContext(ctx, `SELECT `+prefixed("u.", userCols)+`
			FROM password_resets p JOIN users u ON u.id = p.user_id
			WHERE p.token_hash = ? AND p.used_at = 0 AND p.expires_at > ? AND u.disabled = 0`, digest, ms(now)))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE password_resets SET used_at = ? WHERE token_hash = ?", ms(now), digest); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE users SET password_hash = ? WHERE id = ?", passwordHash, u.ID); err != nil {
			return err
		}
		if _, err = tx.ExecContext(ctx, "DELETE FROM sessions WHERE user_id = ?", u.ID); err != nil {
			return err
		}
		return revokeUserTokens(ctx, tx, u.ID, now)
	})
	if err != nil {
		return nil, err
	}
	u.PasswordHash = passwordHash
	return u, nil
}

func isForeignKey(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}
