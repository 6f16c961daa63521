package server

import (
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/views"
)

// The study settings: what they may be and how saving them moves due cards is account's.

func (s *Server) settingsPage(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	f, err := account.SettingsFormFor(r.Context(), s.db, s.fitter(), u, userLocation(u))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	f.Saved = r.URL.Query().Get("saved") == "1"
	f.Fit.Notice = r.URL.Query().Get("fit")
	s.renderSettings(w, r, http.StatusOK, f)
}

func (s *Server) renderSettings(w http.ResponseWriter, r *http.Request, status int, f views.SettingsForm) {
	p := s.page(r, "Settings", "study.js")
	p.CSS = append(p.CSS, s.assets.URL("study.css"))
	s.render(w, r, status, views.Settings(p, f))
}

func (s *Server) saveSettings(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	f := views.SettingsForm{
		Retention: strings.TrimSpace(r.PostFormValue("retention")),
		NewPerDay: strings.TrimSpace(r.PostFormValue("new_per_day")),
		Depth:     r.PostFormValue("depth"),
		TimeZone:  strings.TrimSpace(r.PostFormValue("timezone")),
		Keep:      strings.TrimSpace(r.PostFormValue("keep_recordings")),
		Interview: strings.TrimSpace(r.PostFormValue("interview_date")),
	}
	st, keep, fe := account.ParseSettingsForm(f, u.Settings, s.now())
	if fe != nil {
		f.Err = fe
		var err error
		if f.Fit, err = s.fitter().View(r.Context(), u, userLocation(u)); err != nil {
			s.fail(w, r, err)
			return
		}
		s.renderSettings(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	if err := account.SaveSettings(r.Context(), s.db, u, st, keep, s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/settings?saved=1", http.StatusSeeOther)
}
