package server

import (
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/team"
	"github.com/rehearse/rehearse/internal/views"
)

// adminRoutes registers /admin and its actions (admins only).
func (s *Server) adminRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireAdmin)
		r.Get("/admin", s.adminPage)
		r.Post("/admin/invites", s.createInvites) // invites_admin.go
		r.Post("/admin/invites/{id}/revoke", s.revokeInvite)
		r.Post("/admin/external-url", s.setExternalURL)
		r.Post("/admin/users/{id}/disable", s.setDisabled(true))
		r.Post("/admin/users/{id}/enable", s.setDisabled(false))
		r.Post("/admin/users/{id}/reset", s.createReset)
		r.Post("/admin/tokens/{id}/revoke", s.adminRevokeToken) // tokens.go
		r.Post("/admin/users/{id}/email", s.setEmail)           // admin_team.go
		r.Post("/admin/reload", s.reloadDeck)
		r.Get("/import", func(w http.ResponseWriter, r *http.Request) { // the address people guess
			http.Redirect(w, r, "/admin/import", http.StatusMovedPermanently)
		})
		r.Get("/admin/import", s.importPage) // import.go
		r.Post("/admin/import", s.importPreview)
		r.Post("/admin/import/save", s.importSave)
		r.Post("/admin/import/download", s.importDownload)
		if !s.cfg.MetricsElsewhere {
			r.Get("/metrics", s.metricsPage)
		}
	})
}

var reloadNotices = map[string]string{
	"ok":       "The deck was reloaded.",
	"failed":   "The reload failed; the running deck is unchanged. The problems are listed under Deck.",
	"embedded": "The deck is embedded in the binary, so there is nothing to reload from disk.",
	"static":   "This deck cannot be reloaded.",
}

func (s *Server) adminPage(w http.ResponseWriter, r *http.Request) {
	s.renderAdmin(w, r, http.StatusOK, nil)
}

func (s *Server) renderAdmin(w http.ResponseWriter, r *http.Request, status int, fe *views.FormError) {
	vm, err := team.Admin(r.Context(), s.db, userFrom(r.Context()).ID, s.now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	vm.Err, vm.MetricsHere, vm.Deck = fe, !s.cfg.MetricsElsewhere, s.adminDeck()
	vm.ExternalURL, vm.Configured = s.linkURL(r, ""), s.cfg.BaseURL != "" // baseurl.go
	p := s.page(r, "Administration")
	p.CSS = append(p.CSS, s.assets.URL("team.css"))
	p.Notice = reloadNotices[r.URL.Query().Get("reload")]
	if r.URL.Query().Get("saved") == "editing" {
		p.Notice = "Card editing permission saved."
	}
	s.render(w, r, status, views.Admin(p, vm))
}

// adminDeck is the admin page's deck section: where it comes from, its last load and problems.
func (s *Server) adminDeck() views.AdminDeck {
	d := views.AdminDeck{Source: "embedded", Embedded: true}
	if deck := s.deck(); deck != nil {
		d.Cards = deck.Len()
	}
	if rl, ok := s.decks.(Reloader); ok {
		st := rl.Status()
		d.Source, d.Embedded, d.Reloadable = st.Source, st.Embedded, !st.Embedded
		d.LoadedAt, d.FailedAt, d.OtherError = st.LoadedAt, st.FailedAt, st.OtherError
		for _, e := range st.Errors {
			d.Errors = append(d.Errors, views.DeckError{File: e.File, Line: e.Line, Msg: e.Msg})
		}
	}
	if l := s.loaded(); l != nil {
		for _, e := range l.Skipped {
			d.Skipped = append(d.Skipped, views.DeckError{File: e.File, Line: e.Line, Msg: e.Msg})
		}
	}
	return d
}

func userIDParam(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, store.ErrNotFound
	}
	return id, nil
}

func (s *Server) setDisabled(disabled bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := userIDParam(r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		me := userFrom(r.Context())
		if id == me.ID {
			s.fail(w, r, errStatus(http.StatusConflict, "You cannot disable your own account."))
			return
		}
		if err := s.db.SetDisabled(r.Context(), id, disabled, s.now()); err != nil {
			s.fail(w, r, err)
			return
		}
		s.log.InfoContext(r.Context(), "account access changed", "user_id", id, "disabled", disabled, "by", me.Username)
		http.Redirect(w, r, "/admin#users", http.StatusSeeOther)
	}
}

func (s *Server) createReset(w http.ResponseWriter, r *http.Request) {
	id, err := userIDParam(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	now := s.now()
	u, token, err := team.CreateReset(r.Context(), s.db, id, now)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "password-reset link created", "user_id", u.ID, "by", userFrom(r.Context()).Username)
	what := "Password reset for " + u.Username
	if u.Disabled {
		what += " (the account is disabled: re-enable it first, or the link will not work)"
	}
	w.Header().Set("Cache-Control", "no-store")
	p := s.page(r, "Password-reset link created", "copy.js")
	p.CSS = append(p.CSS, s.assets.URL("team.css"))
	s.render(w, r, http.StatusCreated, views.AdminLinkPage(p, views.AdminLinks{
		Title: "Password-reset link created", What: what, Links: []views.AdminLink{{URL: s.linkURL(r, "/reset/"+token)}}, Expires: now.Add(team.ResetTTL),
	}))
}
