package main

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/views"
)

// loadDeckExpect is deckload.Load's checks plus every card's expectations, every card rendered.
func loadDeckExpect(fsys fs.FS) (*deck.Deck, error) {
	run := memoResults()
	return deck.Load(fsys, deck.Options{Render: true, CheckSim: func(sim *deck.Simulation) error {
		if err := deckload.CheckSim(func(sc rebalance.Scenario, lim rebalance.Limits) error { _, err := run(sc, lim); return err })(sim); err != nil {
			return err
		}
		scs, err := deckload.CardScenarios(sim)
		if err != nil {
			return err
		}
		results := make([]*rebalance.Result, len(scs))
		for i, sc := range scs {
			if results[i], err = run(sc, deckload.CardLimits); err != nil { // memoised: already run above
				return fmt.Errorf("compare[%d] (%s): %w", i, sc.Protocol, err)
			}
		}
		return checkExpectations(sim, results)
	}})
}

// memoResults runs each distinct scenario once while a deck loads: many cards share one.
func memoResults() func(rebalance.Scenario, rebalance.Limits) (*rebalance.Result, error) {
	type outcome struct {
		res *rebalance.Result
		err error
	}
	done := map[string]outcome{}
	return func(sc rebalance.Scenario, lim rebalance.Limits) (*rebalance.Result, error) {
		key, err := sc.Key()
		if err != nil {
			return nil, err
		}
		if o, ok := done[key]; ok {
			return o.res, o.err
		}
		res, err := rebalance.Run(context.Background(), sc, lim)
		done[key] = outcome{res, err}
		return res, err
	}
}

// checkExpectations evaluates a card's simulation.expect against its variants' results
// (results[i] belongs to sim.Compare[i]); each failure is reported at its own line.
func checkExpectations(sim *deck.Simulation, results []*rebalance.Result) error {
	if len(sim.Expect) == 0 {
		return nil
	}
	values := map[string]map[string]float64{}
	for i, res := range results {
		if i < len(sim.Compare) {
			values[sim.Compare[i]] = views.MetricValues(res)
		}
	}
	var failed deck.LineErrors
	for _, x := range sim.Expect {
		if msg := x.Check(values); msg != "" {
			failed = append(failed, deck.LineError{Line: x.Line, Msg: msg})
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return failed
}
