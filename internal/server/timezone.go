package server

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
)

// The first sign-in takes the browser's time zone: a session started for an account whose
// zone was never chosen carries a readable cookie, and app.js answers it by posting
// Intl.DateTimeFormat's zone here once. The zone stays editable on /settings.

const tzCookie = "rehearse_tz"

func (s *Server) timezoneRoutes(r chi.Router) {
	r.With(s.requireUser).Post("/account/timezone", s.firstTimezone)
}

// askTimezone sets the cookie when the account's zone was never chosen.
func (s *Server) askTimezone(w http.ResponseWriter, r *http.Request, userID int64) {
	chosen, err := s.db.TimezoneChosen(r.Context(), userID)
	if err != nil || chosen {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: tzCookie, Value: "ask", Path: "/", MaxAge: 86400,
		SameSite: http.SameSiteLaxMode, Secure: s.secureCookie(r)})
}

func (s *Server) firstTimezone(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: tzCookie, Path: "/", MaxAge: -1, SameSite: http.SameSiteLaxMode, Secure: s.secureCookie(r)})
	tz := r.PostFormValue("tz")
	if _, err := time.LoadLocation(tz); err != nil || tz == "" || tz == "Local" || len(tz) > 64 {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": "tz: not an IANA time zone name"})
		return
	}
	u := userFrom(r.Context())
	set, err := s.db.ChooseFirstTimezone(r.Context(), u.ID, tz)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if set {
		s.log.InfoContext(r.Context(), "time zone taken from the browser", "user", u.Username, "tz", tz)
	}
	w.WriteHeader(http.StatusNoContent)
}
