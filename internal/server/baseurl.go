package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/rehearse/rehearse/internal/store"
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
	if u, msg := checkExternalURL(s.scheme(r) + "://" + r.Host); msg == "" {
		if err := s.db.SetSetting(r.Context(), store.SettingExternalURL, u); err != nil {
			s.log.WarnContext(r.Context(), "recording the external URL", "err", err)
		}
	}
}

// checkExternalURL normalises an external address an admin typed, or says what is wrong.
func checkExternalURL(v string) (string, string) {
	v = strings.TrimRight(strings.TrimSpace(v), "/")
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", "Give the address people open, starting with https:// (or http://), without a query."
	}
	return u.Scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/"), ""
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
