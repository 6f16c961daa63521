package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/sso"
)

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
		id := sso.Identity{Issuer: account.ProxyIssuer, Subject: name, PreferredUsername: name}
		if h := s.cfg.AuthProxyEmailHeader; h != "" {
			// The proxy authenticated the user, so the email it passes counts as verified.
			id.Email, id.EmailVerified = strings.TrimSpace(r.Header.Get(h)), true
		}
		u, created, err := account.SignInProxied(r.Context(), s.db, id, s.now())
		u, err = s.signedInFromOutside(r.Context(), id, u, created, err)
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
