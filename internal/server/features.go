package server

import (
	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/pair"
)

// featureRoutes registers each feature's routes; every feature owns its own file.
func (s *Server) featureRoutes(r chi.Router) {
	s.studyRoutes(r)    // study.go: /study, /settings, /stats
	s.mockRoutes(r)     // mock.go: /mock
	s.simRoutes(r)      // sim.go: /sim, /api/sim
	s.teamRoutes(r)     // team.go: /admin, /account, /invite, /reset, /team
	s.editorRoutes(r)   // editor.go: /cards/new, /cards/{id}/edit, /cards/{id}/history
	s.ssoRoutes(r)      // sso.go: /auth/oidc
	s.timezoneRoutes(r) // timezone.go: /account/timezone
	s.ankiRoutes(r)     // anki.go: /admin/import/anki, /media, /account/export.apkg, suspending cards
	s.pairRoutes(r)     // pair.go: /pair
}

// initFeatures prepares each feature's state; called once from New.
func (s *Server) initFeatures() {
	s.initSim()
	s.pairs = pair.NewHub()
}
