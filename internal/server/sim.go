package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/go-chi/chi/v5"
	"golang.org/x/sync/semaphore"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/simform"
	"github.com/rehearse/rehearse/internal/simrun"
	"github.com/rehearse/rehearse/internal/views"
)

// Simulation feature: the card figure, the lab (/sim) and the JSON API (/api/sim).

const simAPIMaxBody = 256 << 10 // a scenario is small; anything bigger is refused with 413

// simState is the simulator (simrun: cache, slots, shared runs) and the API's output budget.
type simState struct {
	*simrun.Runner
	out *semaphore.Weighted // encoded API bodies in flight
}

func (s *Server) initSim() {
	s.sim = simState{Runner: simrun.New(s.metrics.SimulationRan), out: semaphore.NewWeighted(simOutBytes)}
}

func (s *Server) simRoutes(r chi.Router) {
	r.Get("/sim", s.simLab)
	r.Post("/sim/share", s.simShare) // sim_share.go
	r.Get("/sim/s/{id}", s.simShared)
	r.Post("/api/sim", s.simAPI) // sim_api.go
}

// simHTTPError maps the runner's errors onto responses: busy is a 503, over budget a 422 that
// says which budget and what to shrink.
func simHTTPError(err error) error {
	var be *simrun.BudgetError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, simrun.ErrBusy):
		return errStatus(http.StatusServiceUnavailable, "The simulator is busy; try again in a moment.")
	case errors.As(err, &be):
		return errStatus(http.StatusUnprocessableEntity, be.Msg)
	}
	return err
}

// runSim returns the scenario's result, cached or run within lim (simrun.Runner.Run).
func (s *Server) runSim(ctx context.Context, sc rebalance.Scenario, lim rebalance.Limits) (*rebalance.Result, error) {
	res, err := s.sim.Run(ctx, sc, lim)
	return res, simHTTPError(err)
}

// cardSimulation renders the simulation that illustrates a card, with the what-if the query
// asks for (simform.Card).
func (s *Server) cardSimulation(r *http.Request, c *deck.Card) (views.Slot, error) {
	fig, err := simform.Card(r.Context(), s.sim.Run, c, queryValues(r).Get, "/cards/"+c.ID, s.sim.Web)
	return fig, simHTTPError(err)
}

// cardScripts lists extra scripts the card page needs: the step view's (the figures themselves
// are static SVG and work without it).
func (s *Server) cardScripts() []string { return []string{"sim.js"} }
