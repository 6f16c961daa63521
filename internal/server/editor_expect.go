package server

import (
	"context"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/views"
)

// cardExpectations runs a card's simulation and evaluates its `expect:` claims, as `rehearse
// check` does: each result for the editor, and each failure as a problem at its line (a card
// whose claims fail is not saved, like one the check refuses).
func (s *Server) cardExpectations(ctx context.Context, sim *deck.Simulation) ([]views.ExpectResult, deck.ErrorList) {
	if sim == nil || len(sim.Expect) == 0 {
		return nil, nil
	}
	scs, err := deckload.CardScenarios(sim)
	if err != nil {
		return nil, nil // reported by the simulation check
	}
	values := map[string]map[string]float64{}
	for i, sc := range scs {
		res, err := s.runSim(ctx, sc, deckload.CardLimits)
		if err != nil {
			return nil, nil
		}
		if i < len(sim.Compare) {
			values[sim.Compare[i]] = views.MetricValues(res)
		}
	}
	var out []views.ExpectResult
	var failed deck.ErrorList
	for _, x := range sim.Expect {
		msg := x.Check(values)
		out = append(out, views.ExpectResult{Claim: x.String(), Line: x.Line, Failure: msg})
		if msg != "" {
			failed = append(failed, deck.Error{Line: x.Line, Msg: msg})
		}
	}
	return out, failed
}
