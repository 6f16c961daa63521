package deckload

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/rebalance"
)

// Load loads and validates a deck: the one place that decides which checks a deck gets. Every
// card's simulation must name a known preset, variants that fit it and valid overrides, and
// each variant must run within CardLimits, since the card page runs it. Each card's HTML
// renders on first use; render says to render every card now (`rehearse check`).
//
// A card file byte for byte the bundled one skips the simulation check: the bundled deck's
// simulations are checked when it is built (TestBundledSimulationsFitCardLimits, `rehearse
// check --strict content`), so a start need not run them again.
func Load(fsys fs.FS, render bool) (*deck.Deck, error) {
	return deck.Load(fsys, deck.Options{CheckSim: memoSim(CheckSim(verdicts.run)), Render: render,
		SimChecked: func(file string) bool { return bundled(fsys, file) }})
}

// bundled says whether file in fsys is byte for byte the bundled deck's file of that name. The
// embedded deck is asked first: most files of a deck other than the bundled one are not in it,
// and fsys may be a directory on disk.
func bundled(fsys fs.FS, file string) bool {
	want, err := fs.ReadFile(content.FS, file)
	if err != nil {
		return false
	}
	got, err := fs.ReadFile(fsys, file)
	return err == nil && bytes.Equal(got, want)
}

// The bound on what one card can make the server do. Cards are user input (anyone allowed to
// edit, or a CI job with their token), and every view of a card runs its variants, so a card's
// simulation gets far less than the lab (rebalance.WebLimits): its members, items and events
// are what a figure can show, and its steps a small fraction of a lab run's.
const (
	// MaxCompare caps the variants a card compares side by side (the bundled cards use at most 3).
	MaxCompare = 4
	// cardRunTimeout caps one variant's run on the clock as well, whatever its step count.
	cardRunTimeout = 2 * time.Second
)

// CardLimits bound each variant of a card's simulation; see docs/card-format.md.
var CardLimits = rebalance.Limits{MaxMembers: 60, MaxItems: 600, MaxEvents: 60, MaxDurationMS: 30 * 60 * 1000,
	MaxSteps: 500_000, MaxSegments: 30_000, MaxRounds: 400, MaxRoundItems: 60_000}

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

// CheckSim returns the simulation check Load applies, running scenarios through run within
// CardLimits. The card's bound is checked before anything runs: at most MaxCompare variants,
// each scenario within CardLimits' sizes.
func CheckSim(run func(rebalance.Scenario, rebalance.Limits) error) func(*deck.Simulation) error {
	return func(sim *deck.Simulation) error {
		if len(sim.Compare) > MaxCompare {
			return fmt.Errorf("compare lists %d variants; a card compares at most %d", len(sim.Compare), MaxCompare)
		}
		scs, err := CardScenarios(sim)
		if err != nil {
			return err
		}
		for i, sc := range scs {
			if err := sc.WithDefaults().Validate(CardLimits); err != nil {
				return fmt.Errorf("compare[%d] (%s): over a card's limits: %w", i, sc.Protocol, err)
			}
		}
		for i, sc := range scs {
			if err := run(sc, CardLimits); err != nil {
				return fmt.Errorf("compare[%d] (%s): %w", i, sc.Protocol, err)
			}
		}
		return nil
	}
}

// verdicts remembers whether each scenario ran within CardLimits, for the life of the process:
// a run is deterministic, so a reload (every save of a card is one) runs only the scenarios it
// has not seen. Each entry is a key and an error, and a key is bounded by the card size.
var verdicts = &verdictMemo{done: map[string]error{}}

type verdictMemo struct {
	mu   sync.Mutex
	done map[string]error
	ran  int // runs done, for tests
}

// maxVerdicts bounds the memo; past it, it starts again (a deck of thousands of distinct
// simulations, or a long run of edits).
const maxVerdicts = 10_000

func (m *verdictMemo) run(sc rebalance.Scenario, lim rebalance.Limits) error {
	key, err := sc.Key()
	if err != nil {
		return err
	}
	key = fmt.Sprintf("%+v|%s", lim, key)
	m.mu.Lock()
	err, ok := m.done[key]
	m.mu.Unlock()
	if ok {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), cardRunTimeout)
	defer cancel()
	_, err = rebalance.Run(ctx, sc, lim)
	m.mu.Lock()
	m.ran++
	m.mu.Unlock()
	if ctx.Err() != nil { // the clock depends on the machine's load: not a verdict to keep
		return fmt.Errorf("%w (a card's variant runs at most %s)", err, cardRunTimeout)
	}
	m.mu.Lock()
	if len(m.done) >= maxVerdicts {
		clear(m.done)
	}
	m.done[key] = err
	m.mu.Unlock()
	return err
}
