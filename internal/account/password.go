package account

import (
	"context"
	"errors"
	"net/netip"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// Passwords checks passwords: the hasher (at most a few hashes at once) and the login limiter
// that counts every check, whether a login or an action that asks for the password again.
type Passwords struct {
	Hasher  *auth.Hasher
	Limiter *auth.LoginLimiter
}

// UserFinder finds an account by name (the store implements it).
type UserFinder interface {
	UserByName(ctx context.Context, username string) (*store.User, error)
}

// Login checks name and password from addr at now. The attempt is counted before any password
// is hashed, whether or not the account exists, so parallel guesses are counted too; an
// unknown name costs what a real check costs, so timing does not reveal which names exist.
// It returns the user; or a wait (> 0) when addr must wait before trying this account again;
// or auth.ErrMismatch for a wrong name or password, or a disabled account; or another error
// (the server busy, the database), which is not held against the visitor.
func (p Passwords) Login(ctx context.Context, db UserFinder, name, password string, addr netip.Addr, now time.Time) (*store.User, time.Duration, error) {
	attempt, wait := p.Limiter.Begin(now, name, addr)
	if attempt == nil {
		return nil, wait, nil
	}
	u, err := db.UserByName(ctx, name)
	switch {
	case err == nil:
		if u.PasswordHash == "" { // an account that signs in only from outside
			err = p.Hasher.CheckDummy(ctx, password)
		} else {
			err = p.Hasher.Check(ctx, u.PasswordHash, password)
		}
		if err == nil && u.Disabled {
			err = auth.ErrMismatch
		}
	case errors.Is(err, store.ErrNotFound):
		err = p.Hasher.CheckDummy(ctx, password)
	}
	return u, 0, p.settle(attempt, err)
}

// Confirm checks the signed-in user's password for an action that needs it, counted like a
// login, so a stolen session cannot guess it at speed. Its results are Login's.
func (p Passwords) Confirm(ctx context.Context, u *store.User, password string, addr netip.Addr, now time.Time) (time.Duration, error) {
	attempt, wait := p.Limiter.Begin(now, u.Username, addr)
	if attempt == nil {
		return wait, nil
	}
	return 0, p.settle(attempt, p.Hasher.Check(ctx, u.PasswordHash, password))
}

// settle records how a counted attempt ended.
func (p Passwords) settle(attempt *auth.LoginAttempt, err error) error {
	switch {
	case errors.Is(err, auth.ErrMismatch):
		attempt.Failed()
	case err != nil:
		attempt.Cancel() // never checked: not the visitor's failure
	default:
		attempt.Succeeded()
	}
	return err
}

// CheckNewPassword checks the two new-password fields: the message for the field that is
// wrong ("password" or "password2"), or "" when they are fine.
func CheckNewPassword(password, password2 string) (field, msg string) {
	if err := auth.ValidatePassword(password); err != nil {
		return "password", "The password " + err.Error() + "."
	}
	if password != password2 {
		return "password2", "The two passwords differ."
	}
	return "", ""
}

// NewAccountFields checks a new account's name and password fields: the message of each field
// that is wrong, none when all are fine.
func NewAccountFields(name, password, password2 string) map[string]string {
	fields := map[string]string{}
	if msg := store.ValidateUsername(name); msg != "" {
		fields["username"] = msg
	}
	if field, msg := CheckNewPassword(password, password2); msg != "" {
		fields[field] = msg
	}
	return fields
}

// PasswordStore is what setting passwords writes (the store implements it).
type PasswordStore interface {
	CreateFirstAdmin(ctx context.Context, username, passwordHash string, now time.Time) (*store.User, error)
	RedeemInvite(ctx context.Context, digest []byte, username, passwordHash string, now time.Time) (*store.User, error)
	RedeemReset(ctx context.Context, digest []byte, passwordHash string, now time.Time) (*store.User, error)
	SetPassword(ctx context.Context, userID int64, passwordHash string, now time.Time) error
	DeleteUserSessions(ctx context.Context, userID int64) error
}

// FirstAdmin makes the instance's first account, an admin (store.ErrConflict once any exists).
func (p Passwords) FirstAdmin(ctx context.Context, db PasswordStore, name, password string, now time.Time) (*store.User, error) {
	hash, err := p.Hasher.Hash(ctx, password)
	if err != nil {
		return nil, err
	}
	return db.CreateFirstAdmin(ctx, name, hash, now)
}

// Join makes the account the invite with this token digest offers: store.ErrConflict when the
// name is taken, store.ErrNotFound when the invite is no longer valid.
func (p Passwords) Join(ctx context.Context, db PasswordStore, digest []byte, name, password string, now time.Time) (*store.User, error) {
	hash, err := p.Hasher.Hash(ctx, password)
	if err != nil {
		return nil, err
	}
	return db.RedeemInvite(ctx, digest, name, hash, now)
}

// Reset sets the password through the reset link with this token digest (store.ErrNotFound
// when it is no longer valid), and forgets the account's failed logins.
func (p Passwords) Reset(ctx context.Context, db PasswordStore, digest []byte, password string, now time.Time) (*store.User, error) {
	hash, err := p.Hasher.Hash(ctx, password)
	if err != nil {
		return nil, err
	}
	u, err := db.RedeemReset(ctx, digest, hash, now)
	if err != nil {
		return nil, err
	}
	p.Limiter.ClearAccount(u.Username)
	return u, nil
}

// Change sets u's new password and ends all of u's sessions: whoever knew the old password
// loses theirs (the caller starts a fresh one for the browser that changed it).
func (p Passwords) Change(ctx context.Context, db PasswordStore, u *store.User, password string, now time.Time) error {
	hash, err := p.Hasher.Hash(ctx, password)
	if err != nil {
		return err
	}
	if err := db.SetPassword(ctx, u.ID, hash, now); err != nil {
		return err
	}
	return db.DeleteUserSessions(ctx, u.ID)
}
