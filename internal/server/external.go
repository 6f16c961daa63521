package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/store"
)

var (
	errNoAccount = errStatus(http.StatusForbidden, "You signed in, but no account here matches you. Ask an administrator to invite you or to add your email to an account.")
	errDisabled  = errStatus(http.StatusForbidden, "This account is disabled. Ask an administrator.")
)

// signedInFromOutside finishes a sign-in from outside (account.SignIn or SignInProxied): it
// maps the refusals to their pages and logs an account made by the sign-in.
func (s *Server) signedInFromOutside(ctx context.Context, id sso.Identity, u *store.User, created bool, err error) (*store.User, error) {
	switch {
	case errors.Is(err, account.ErrNoAccount):
		return nil, errNoAccount
	case errors.Is(err, account.ErrDisabled):
		return nil, errDisabled
	case err != nil:
		return nil, err
	}
	if created {
		s.setupDone.Store(true)
		s.log.InfoContext(ctx, "account made at first sign-in", "user", u.Username, "role", u.Role, "issuer", id.Issuer)
	}
	return u, nil
}
