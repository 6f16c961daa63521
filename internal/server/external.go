package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/store"
)

var (
	errNoAccount = errStatus(http.StatusForbidden, "You signed in, but no account here matches you. Ask an administrator to invite you or to add your email to an account.")
	errDisabled  = errStatus(http.StatusForbidden, "This account is disabled. Ask an administrator.")
)

// signInExternal turns an identity vouched for from outside (the OpenID Connect provider, or
// the login proxy) into an account here, by the rules in sso.Decide; with an admin group the
// role follows the group at each sign-in.
func (s *Server) signInExternal(ctx context.Context, id sso.Identity, mode sso.Accounts, adminGroup string) (*store.User, error) {
	u, err := s.db.UserByIdentity(ctx, id.Issuer, id.Subject)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	linked := err == nil
	var holder *store.User
	if !linked && id.Email != "" {
		if holder, err = s.db.UserByEmail(ctx, id.Email); err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
	}
	exist, err := s.usersExist(ctx)
	if err != nil {
		return nil, err
	}
	switch sso.Decide(mode, linked, holder != nil, id.EmailVerified, !exist) {
	case sso.LinkByEmail:
		if err := s.db.LinkIdentity(ctx, id.Issuer, id.Subject, holder.ID, s.now()); err != nil {
			return nil, err
		}
		u = holder
	case sso.CreateNew:
		email := id.Email
		if !id.EmailVerified {
			email = ""
		}
		u, err = s.db.CreateExternalUser(ctx, store.ExternalAccount{Issuer: id.Issuer, Subject: id.Subject,
			Username: sso.Username(id), Email: email, Role: sso.Role(id, adminGroup, "", false), AdminIfFirst: true}, s.now())
		if err != nil {
			return nil, err
		}
		s.log.InfoContext(ctx, "account made at first sign-in", "user", u.Username, "role", u.Role, "issuer", id.Issuer)
	case sso.Refuse:
		return nil, errNoAccount
	}
	if u.Disabled {
		return nil, errDisabled
	}
	if adminGroup != "" {
		if want := sso.Role(id, adminGroup, u.Role, false); want != u.Role {
			if u.Role, err = s.db.SetRole(ctx, u.ID, want); err != nil {
				return nil, err
			}
		}
	}
	return u, nil
}
