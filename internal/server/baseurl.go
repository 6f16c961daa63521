package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/team"
)

// Without --base-url, the external address is the one the setup page was opened at, recorded
// once (the admin typed it into their browser, so unlike a later request's Host header it is
// not a stranger's choice) and changeable on /admin. Invite links and the OpenID Connect
// callback are built from it.

// recordedURL is the external address recorded at setup or set on /admin ("" when none).
func (s *Server) recordedURL(ctx context.Context) string {
	v, err := s.db.Setting(ctx, store.SettingExternalURL)
	if err != nil {
		return ""
	}
	return v
}

// recordURL keeps the address a request came in at, unless one is configured or recorded.
func (s *Server) recordURL(r *http.Request) {
	if s.cfg.BaseURL != "" || s.recordedURL(r.Context()) != "" {
		return
	}
	if u, msg := team.CheckExternalURL(s.scheme(r) + "://" + r.Host); msg == "" {
		if err := s.db.SetSetting(r.Context(), store.SettingExternalURL, u); err != nil {
			s.log.WarnContext(r.Context(), "recording the external URL", "err", err)
		}
	}
}

// linkURL makes a link for use outside the app (invites, password resets): always absolute.
// Without --base-url or a recorded address, the admin's own request (they typed the address
// into their browser) is recorded and used.
func (s *Server) linkURL(r *http.Request, path string) string {
	if s.cfg.BaseURL != "" {
		return strings.TrimRight(s.cfg.BaseURL, "/") + path
	}
	s.recordURL(r)
	if u := s.recordedURL(r.Context()); u != "" {
		return u + path
	}
	return s.scheme(r) + "://" + r.Host + path
}
