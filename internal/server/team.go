package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/team"
	"github.com/rehearse/rehearse/internal/views"
)

// Team and administration: invites, accounts, the admin page and the team view (what the team
// page shows, and to whom, is internal/team's).

func (s *Server) teamRoutes(r chi.Router) {
	s.inviteRoutes(r)  // invite.go: /invite/{token}, /reset/{token}
	s.accountRoutes(r) // account.go: /account
	s.adminRoutes(r)   // admin.go: /admin, /metrics
	s.themeRoutes(r)   // theme.go: /account/theme
	r.With(s.requireUser).Get("/team", s.teamPage)
}

func (s *Server) teamPage(w http.ResponseWriter, r *http.Request) {
	vm, err := team.Page(r.Context(), s.db, s.deck(), userFrom(r.Context()), s.now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r, "Team")
	p.CSS = append(p.CSS, s.assets.URL("team.css"))
	s.render(w, r, http.StatusOK, views.Team(p, vm))
}
