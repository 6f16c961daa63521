package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/store"
)

// The colour theme: light, dark or the device's. Signed out it lives in the browser
// (localStorage, theme.js); signed in it is saved per user and rendered into every page, so it
// follows the account to a new device.

func (s *Server) themeRoutes(r chi.Router) {
	r.With(s.requireUser).Post("/account/theme", s.setTheme)
}

// userTheme is the user's saved theme. A failed lookup only costs the choice on this page: it is
// logged and the device's theme shows instead of an error page.
func (s *Server) userTheme(r *http.Request, userID int64) string {
	t, err := s.db.Theme(r.Context(), userID)
	if err != nil {
		s.log.WarnContext(r.Context(), "theme lookup failed", "err", err)
		return ""
	}
	return t
}

// setTheme saves the theme from the account form, or from the header toggle (js=1), which only
// needs a status.
func (s *Server) setTheme(w http.ResponseWriter, r *http.Request) {
	t := r.PostFormValue("theme")
	if !store.ValidTheme(t) {
		s.errorPage(w, r, http.StatusBadRequest, "The theme must be system, light or dark.")
		return
	}
	if err := s.db.SetTheme(r.Context(), userFrom(r.Context()).ID, t); err != nil {
		s.fail(w, r, err)
		return
	}
	if r.PostFormValue("js") == "1" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, "/account?saved=theme#appearance", http.StatusSeeOther)
}
