package deckload

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/rebalance"
)

// Load loads and validates a deck: the one place that decides which checks a deck gets. Every
// card's simulation must name a known preset, variants that fit it and valid overrides, and
// each variant must run within the card page's budget, since the card page runs it. Each card's
// HTML renders on first use; render says to render every card now (`rehearse check`).
func Load(fsys fs.FS, render bool) (*deck.Deck, error) {
	_, reread := fsys.(*snapshot) // its files read the same later, so cards need not keep their text
	return deck.Load(fsys, deck.Options{CheckSim: memoSim(CheckSim(memoRun())), Render: render, Reread: reread})
}

// memoSim remembers check's verdict for each distinct simulation (preset, variants, overrides):
// most cards of a large deck repeat one, and building the scenarios to look the runs up cost as
// much as the rest of loading their cards.
func memoSim(check func(*deck.Simulation) error) func(*deck.Simulation) error {
	done := map[string]error{}
	return func(sim *deck.Simulation) error {
		k, err := json.Marshal(struct {
			P string
			C []string
			O map[string]any
		}{sim.Preset, sim.Compare, sim.Overrides})
		if err != nil { // not a key (json cannot hold it): just check
			return check(sim)
		}
		if err, ok := done[string(k)]; ok {
			return err
		}
		err = check(sim)
		done[string(k)] = err
		return err
	}
}

// CheckSim returns the simulation check Load applies, running scenarios through run.
func CheckSim(run func(rebalance.Scenario, rebalance.Limits) error) func(*deck.Simulation) error {
	return func(sim *deck.Simulation) error {
		scs, err := CardScenarios(sim)
		if err != nil {
			return err
		}
		lim := rebalance.CardLimits
		for i, sc := range scs {
			if err := run(sc, lim); err != nil {
				return fmt.Errorf("compare[%d] (%s): %w", i, sc.Protocol, err)
			}
		}
		return nil
	}
}

// memoRun returns a rebalance.Run that remembers each scenario's outcome, for loading one deck.
// Checking every card's simulation was most of the start-up time of a large deck, and cards
// often share a scenario (the same preset and variant with no overrides); a run is
// deterministic, so one run answers for all of them.
func memoRun() func(rebalance.Scenario, rebalance.Limits) error {
	done := map[string]error{}
	return func(sc rebalance.Scenario, lim rebalance.Limits) error {
		key, err := sc.Key()
		if err != nil {
			return err
		}
		if err, ok := done[key]; ok {
			return err
		}
		_, err = rebalance.Run(context.Background(), sc, lim)
		done[key] = err
		return err
	}
}
