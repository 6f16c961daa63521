// Package account holds the rules of a person's own account here: what an identity vouched for
// from outside (an OpenID Connect provider, a login proxy) signs in as, the checks of the
// settings form, the scheduler their settings make, and fitting its weights to their reviews.
// Storage comes in through small interfaces the store implements; time is passed in.
package account

import (
	"context"
	"errors"
	"time"

	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/store"
)

var (
	// ErrNoAccount: the identity is not linked, no account holds its verified email, and the
	// admin allows no new accounts.
	ErrNoAccount = errors.New("account: no account matches the identity")
	// ErrDisabled: the identity's account is disabled.
	ErrDisabled = errors.New("account: the account is disabled")
)

// Identities is what signing in from outside reads and writes (the store implements it).
type Identities interface {
	UserByIdentity(ctx context.Context, issuer, subject string) (*store.User, error)
	UserByEmail(ctx context.Context, email string) (*store.User, error)
	UserByName(ctx context.Context, username string) (*store.User, error)
	CountUsers(ctx context.Context) (int, error)
	LinkIdentity(ctx context.Context, issuer, subject string, userID int64, now time.Time) error
	CreateExternalUser(ctx context.Context, a store.ExternalAccount, now time.Time) (*store.User, error)
	SetRole(ctx context.Context, userID int64, role string) (string, error)
}

// SignIn turns an identity vouched for from outside into an account here, by the rules in
// sso.Decide; with an admin group the role follows the group at each sign-in. created says the
// account was made by this sign-in.
func SignIn(ctx context.Context, db Identities, id sso.Identity, mode sso.Accounts, adminGroup string, now time.Time) (u *store.User, created bool, err error) {
	u, err = db.UserByIdentity(ctx, id.Issuer, id.Subject)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, false, err
	}
	linked := err == nil
	var holder *store.User
	if !linked && id.Email != "" {
		if holder, err = db.UserByEmail(ctx, id.Email); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, false, err
		}
	}
	n, err := db.CountUsers(ctx)
	if err != nil {
		return nil, false, err
	}
	switch sso.Decide(mode, linked, holder != nil, id.EmailVerified, n == 0) {
	case sso.LinkByEmail:
		if err := db.LinkIdentity(ctx, id.Issuer, id.Subject, holder.ID, now); err != nil {
			return nil, false, err
		}
		u = holder
	case sso.CreateNew:
		email := id.Email
		if !id.EmailVerified {
			email = ""
		}
		u, err = db.CreateExternalUser(ctx, store.ExternalAccount{Issuer: id.Issuer, Subject: id.Subject,
			Username: sso.Username(id), Email: email, Role: sso.Role(id, adminGroup, "", false), AdminIfFirst: true}, now)
		if err != nil {
			return nil, false, err
		}
		created = true
	case sso.Refuse:
		return nil, false, ErrNoAccount
	}
	if u.Disabled {
		return nil, false, ErrDisabled
	}
	if adminGroup != "" {
		if want := sso.Role(id, adminGroup, u.Role, false); want != u.Role {
			if u.Role, err = db.SetRole(ctx, u.ID, want); err != nil {
				return nil, false, err
			}
		}
	}
	return u, created, nil
}

// ProxyIssuer is the issuer under which identities from the login proxy are linked.
const ProxyIssuer = "proxy"

// SignInProxied is the account a login proxy's user signs in as: one linked before, else one
// holding the email, else the account of the same name (proxies usually pass the directory's
// user name, which is what people chose here too), else a new member.
func SignInProxied(ctx context.Context, db Identities, id sso.Identity, now time.Time) (*store.User, bool, error) {
	_, err := db.UserByIdentity(ctx, id.Issuer, id.Subject)
	if errors.Is(err, store.ErrNotFound) {
		holder := false
		if id.Email != "" {
			_, err := db.UserByEmail(ctx, id.Email)
			holder = err == nil
		}
		if u, err := db.UserByName(ctx, id.Subject); !holder && err == nil {
			if err := db.LinkIdentity(ctx, id.Issuer, id.Subject, u.ID, now); err != nil {
				return nil, false, err
			}
		}
	}
	return SignIn(ctx, db, id, sso.Create, "", now)
}
