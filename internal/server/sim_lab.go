package server

import (
	"errors"
	"net/http"

	"github.com/rehearse/rehearse/internal/simform"
	"github.com/rehearse/rehearse/internal/views"
)

// simLab serves the lab. Without a submitted form it loads a preset (the default one when
// none is named); a submitted form is parsed, validated and run. It is GET throughout, so the
// URL carries the scenario.
func (s *Server) simLab(w http.ResponseWriter, r *http.Request) { s.renderLab(w, r, "") }

// renderLab is the lab for r's query; short is the page's short link when it was opened by one.
func (s *Server) renderLab(w http.ResponseWriter, r *http.Request, short string) {
	v, err := simform.Lab(r.Context(), s.sim.Run, r.URL.Query(), s.sim.Web)
	v.ShortURL = short
	status := http.StatusOK
	he, refused := errors.AsType[*httpError](simHTTPError(err))
	switch {
	case errors.Is(err, simform.ErrForm):
		status = http.StatusUnprocessableEntity
	case refused:
		v.Err, status = &views.FormError{Form: he.msg}, he.status
	case err != nil:
		s.fail(w, r, err)
		return
	}
	p := s.page(r, "Rebalance lab", "sim.js")
	p.CSS = append(p.CSS, s.assets.URL("sim.css"))
	s.render(w, r, status, views.SimLab(p, v))
}
