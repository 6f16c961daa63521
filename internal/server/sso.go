package server

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/views"
)

// OpenID Connect sign-in: /auth/oidc sends the browser to the provider with a fresh state,
// nonce and PKCE challenge (kept in a short-lived cookie), and /auth/oidc/callback checks what
// comes back (internal/sso) and signs the identity in (external.go).

const (
	oidcCookie   = "rehearse_oidc"
	oidcCallback = "/auth/oidc/callback"
	oidcFlowSecs = 600 // a sign-in at the provider must finish within ten minutes
)

func (s *Server) ssoRoutes(r chi.Router) {
	if s.cfg.OIDC == nil {
		return
	}
	r.Get("/auth/oidc", s.oidcStart)
	r.Get(oidcCallback, s.oidcFinish)
}

// oidcFlow is the cookie's content: the sign-in's secrets and where to go afterwards.
type oidcFlow struct {
	sso.Flow
	Next string `json:"next"`
}

func (s *Server) oidcStart(w http.ResponseWriter, r *http.Request) {
	noStore(w)
	to, flow, err := s.cfg.OIDC.Start(r.Context(), s.externalURL(r)+oidcCallback)
	if err != nil {
		s.oidcFailed(w, r, err)
		return
	}
	b, _ := json.Marshal(oidcFlow{Flow: flow, Next: safeNext(r.URL.Query().Get("next"))})
	// Lax: the provider's redirect back is a top-level GET, which Lax cookies accompany.
	http.SetCookie(w, &http.Cookie{Name: oidcCookie, Value: base64.RawURLEncoding.EncodeToString(b),
		Path: "/auth/oidc", MaxAge: oidcFlowSecs, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookie(r)})
	http.Redirect(w, r, to, http.StatusSeeOther)
}

func (s *Server) oidcFinish(w http.ResponseWriter, r *http.Request) {
	noStore(w)
	var flow oidcFlow
	if c, err := r.Cookie(oidcCookie); err == nil && len(c.Value) < 2048 {
		if b, err := base64.RawURLEncoding.DecodeString(c.Value); err == nil {
			json.Unmarshal(b, &flow)
		}
	}
	http.SetCookie(w, &http.Cookie{Name: oidcCookie, Path: "/auth/oidc", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secureCookie(r)})
	q := r.URL.Query()
	if e := q.Get("error"); e != "" {
		s.oidcFailed(w, r, errors.New("sso: the provider answered "+e))
		return
	}
	if flow.State == "" {
		s.oidcRefused(w, r, "This sign-in was not started from this browser, or took longer than ten minutes. Try again.")
		return
	}
	id, err := s.cfg.OIDC.Finish(r.Context(), s.externalURL(r)+oidcCallback, flow.Flow, q.Get("state"), q.Get("code"))
	if err != nil {
		s.oidcFailed(w, r, err)
		return
	}
	u, created, err := account.SignIn(r.Context(), s.db, id, s.cfg.OIDCAccounts, s.cfg.OIDC.AdminGroup(), s.now())
	u, err = s.signedInFromOutside(r.Context(), id, u, created, err)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "signed in through OpenID Connect", "user", u.Username, "issuer", id.Issuer)
	s.recordURL(r) // the first sign-in may be the one that sets the instance up
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, safeNext(flow.Next), http.StatusSeeOther)
}

// oidcFailed shows the login page with what went wrong: the visitor's sign-in was refused (the
// reason is logged, not shown), or the provider could not be reached.
func (s *Server) oidcFailed(w http.ResponseWriter, r *http.Request, err error) {
	s.log.WarnContext(r.Context(), "OpenID Connect sign-in failed", "err", err)
	if errors.Is(err, sso.ErrUnreachable) {
		f := s.loginForm(r, "/")
		f.Err = &views.FormError{Form: "The sign-in service cannot be reached right now. Try again in a minute."}
		s.render(w, r, http.StatusBadGateway, views.Login(s.page(r, "Log in"), f))
		return
	}
	s.oidcRefused(w, r, "The sign-in could not be completed. Try again, or ask an administrator.")
}

func (s *Server) oidcRefused(w http.ResponseWriter, r *http.Request, msg string) {
	f := s.loginForm(r, "/")
	f.Err = &views.FormError{Form: msg}
	s.render(w, r, http.StatusUnauthorized, views.Login(s.page(r, "Log in"), f))
}

// externalURL is how visitors reach this site: --base-url, else the address the setup page
// recorded (baseurl.go), else the request's own scheme and host.
func (s *Server) externalURL(r *http.Request) string {
	if s.cfg.BaseURL != "" {
		return strings.TrimRight(s.cfg.BaseURL, "/")
	}
	if u := s.recordedURL(r.Context()); u != "" {
		return u
	}
	return s.scheme(r) + "://" + r.Host
}

// signsInFromOutside: an account can be made without the setup page (the first sign-in
// through the provider or the proxy becomes the admin) and the setup page's password would
// be of no use.
func (s *Server) signsInFromOutside() bool {
	return s.cfg.NoPasswords && (s.cfg.OIDC != nil || s.cfg.AuthProxyHeader != "")
}
