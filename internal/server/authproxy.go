package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/store"
)

// proxyIssuer is the issuer under which identities from the login proxy are linked.
const proxyIssuer = "proxy"

// proxySignIn signs in the user a trusted login proxy (Authelia, oauth2-proxy, ...) names in
// --auth-proxy-header. The header is believed only on a connection from --trusted-proxies;
// from anywhere else it is ignored, as anyone can send it. A request whose session already
// belongs to that user goes on as it is; otherwise the user gets a new session (a new cookie,
// the old session ended), exactly as a password login would. The cross-origin check runs
// before this, so a proxied request is refused cross-site like any other.
func (s *Server) proxySignIn(next http.Handler) http.Handler {
	if s.cfg.AuthProxyHeader == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSpace(r.Header.Get(s.cfg.AuthProxyHeader))
		if name == "" || len(name) > 256 || !s.trusted(remoteAddr(r)) {
			next.ServeHTTP(w, r)
			return
		}
		cur := userFrom(r.Context())
		if cur != nil && cur.Username == name {
			next.ServeHTTP(w, r)
			return
		}
		id := sso.Identity{Issuer: proxyIssuer, Subject: name, PreferredUsername: name}
		if h := s.cfg.AuthProxyEmailHeader; h != "" {
			// The proxy authenticated the user, so the email it passes counts as verified.
			id.Email, id.EmailVerified = strings.TrimSpace(r.Header.Get(h)), true
		}
		u, err := s.proxyUser(r.Context(), id)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if cur == nil || cur.ID != u.ID {
			if err := s.startSession(w, r, u); err != nil {
				s.fail(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey, u)))
	})
}

// proxyUser is the account a proxy's user signs in as: one linked before, else one holding
// the email, else the account of the same name (proxies usually pass the directory's user
// name, which is what people chose here too), else a new member.
func (s *Server) proxyUser(ctx context.Context, id sso.Identity) (*store.User, error) {
	_, err := s.db.UserByIdentity(ctx, id.Issuer, id.Subject)
	if errors.Is(err, store.ErrNotFound) {
		holder := false
		if id.Email != "" {
			_, err := s.db.UserByEmail(ctx, id.Email)
			holder = err == nil
		}
		if u, err := s.db.UserByName(ctx, id.Subject); !holder && err == nil {
			if err := s.db.LinkIdentity(ctx, id.Issuer, id.Subject, u.ID, s.now()); err != nil {
				return nil, err
			}
		}
	}
	return s.signInExternal(ctx, id, sso.Create, "")
}
