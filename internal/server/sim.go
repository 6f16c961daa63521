package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5"
	"golang.org/x/sync/semaphore"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/simrun"
	"github.com/rehearse/rehearse/internal/views"
)

// Simulation feature: the card figure, the lab (/sim) and the JSON API (/api/sim).

const simAPIMaxBody = 256 << 10 // a scenario is small; anything bigger is refused with 413

// cardLimits are the bound a card's simulation was checked against when it was saved or loaded.
var cardLimits = deckload.CardLimits

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

// acquireSim takes a slot (simrun); the caller must releaseSim.
func (s *Server) acquireSim(ctx context.Context) error { return simHTTPError(s.sim.Acquire(ctx)) }

func (s *Server) releaseSim() { s.sim.Release() }

// runSim returns the scenario's result, cached or run within lim (simrun.Runner.Run).
func (s *Server) runSim(ctx context.Context, sc rebalance.Scenario, lim rebalance.Limits) (*rebalance.Result, error) {
	res, err := s.sim.Run(ctx, sc, lim)
	return res, simHTTPError(err)
}

// simResult is runSim for a caller that may already hold a slot (simrun.Runner.Result).
func (s *Server) simResult(ctx context.Context, sc rebalance.Scenario, lim rebalance.Limits, holdsSlot bool) (*rebalance.Result, error) {
	res, err := s.sim.Result(ctx, sc, lim, holdsSlot)
	return res, simHTTPError(err)
}

// compare runs one scenario per variant and builds the side-by-side view.
func (s *Server) compare(ctx context.Context, labels []string, scs []rebalance.Scenario, lim rebalance.Limits) (views.SimComparison, error) {
	var c views.SimComparison
	for i, sc := range scs {
		res, err := s.runSim(ctx, sc, lim)
		if err != nil {
			return c, err
		}
		c.Variants = append(c.Variants, views.NewVariant(i, labels[i], res))
		if res.Truncated {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the run was too large to record in full; the timeline stops at %s (metrics are exact).", labels[i], views.Secs(res.TruncatedAtMS)))
		}
	}
	if len(scs) > 0 {
		c.Headline, c.Regime = views.Headline(scs[0].Kind, c.Variants), views.Regime(scs, labels)
		c.Notes = append(c.Notes, scs[0].Beyond()...) // events the run ends too early to show
	}
	return c, nil
}

// cardSimulation renders the simulation that illustrates a card.
func (s *Server) cardSimulation(r *http.Request, c *deck.Card) (views.Slot, error) {
	if c.Sim == nil {
		return nil, nil
	}
	scs, err := deckload.CardScenarios(c.Sim)
	if err != nil {
		// The deck check rejects these at load; reaching here means a deck loaded without it.
		return nil, fmt.Errorf("card %s: simulation: %w", c.ID, err)
	}
	labels := variantLabels(c.Sim.Compare, scs)
	cmp, wi, ran, err := s.whatIf(r.Context(), queryValues(r).Get, "/cards/"+c.ID, labels, scs) // sim_whatif.go
	if err != nil {
		return nil, err
	}
	if !ran { // nothing asked, or refused: the card's own regime
		if cmp, err = s.compare(r.Context(), labels, scs, cardLimits); err != nil {
			return nil, err
		}
	}
	cmp.WhatIf = wi
	cmp.Caption = c.Sim.Caption
	return views.SimFigure(cmp), nil
}

// variantLabels names each variant: the card's compare labels, or the scenario's own protocol.
func variantLabels(compare []string, scs []rebalance.Scenario) []string {
	if len(compare) == len(scs) {
		return compare
	}
	out := make([]string, len(scs))
	for i, sc := range scs {
		out[i] = sc.Protocol
		if sc.StaticMembership {
			out[i] += "+static"
		}
	}
	return out
}

// cardScripts lists extra scripts the card page needs: the step view's (the figures themselves
// are static SVG and work without it).
func (s *Server) cardScripts() []string { return []string{"sim.js"} }
