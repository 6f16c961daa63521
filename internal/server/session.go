package server

import (
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// startSession issues a fresh session for u (a new id at every login, so a planted cookie is
// worthless) and ends the one the request came with.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u *store.User) error {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		s.db.DeleteSession(r.Context(), auth.Digest(c.Value))
	}
	token, digest := auth.NewToken()
	now := s.now()
	if err := s.db.CreateSession(r.Context(), digest, u.ID, now, now.Add(s.cfg.SessionTTL)); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/",
		Expires: now.Add(s.cfg.SessionTTL), MaxAge: int(s.cfg.SessionTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookie(r),
	})
	s.askTimezone(w, r, u.ID) // timezone.go
	return nil
}

// secureCookie: configured, or the visitor came over https (directly, or per a trusted proxy).
func (s *Server) secureCookie(r *http.Request) bool {
	return s.cfg.SecureCookies || s.scheme(r) == "https"
}

func (s *Server) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookie(r)})
}
