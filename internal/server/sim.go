package server

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"golang.org/x/sync/semaphore"
	"golang.org/x/sync/singleflight"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/views"
)

// Simulation feature: the card figure, the lab (/sim) and the JSON API (/api/sim).

const (
	simCacheSize   = 128              // results kept; a card needs one per variant (bytes: simCacheBytes)
	simRunTimeout  = 5 * time.Second  // wall-clock cap per request, on top of the step budget
	simMaxParallel = 2                // runs and API encodings at once (CPU-bound, and each holds a result's memory)
	simAPIMaxBody  = 256 << 10        // a scenario is small; anything bigger is refused with 413
	simWaitForSlot = 10 * time.Second // how long a request queues for a slot
)

// cardLimits are the bound a card's simulation was checked against when it was saved or loaded.
var cardLimits = deckload.CardLimits

type simState struct {
	cache  *simCache
	slots  chan struct{}      // held by every run and every API encoding
	flight singleflight.Group // identical concurrent scenarios share one run
	out    *semaphore.Weighted
	web    rebalance.Limits // for the lab and the API; a field so tests can shrink the budget
}

func (s *Server) initSim() {
	s.sim = simState{cache: newSimCache(simCacheSize, simCacheBytes), slots: make(chan struct{}, simMaxParallel),
		out: semaphore.NewWeighted(simOutBytes), web: rebalance.WebLimits}
}

func (s *Server) simRoutes(r chi.Router) {
	r.Get("/sim", s.simLab)
	r.Post("/sim/share", s.simShare) // sim_share.go
	r.Get("/sim/s/{id}", s.simShared)
	r.Post("/api/sim", s.simAPI) // sim_api.go
}

var errSimBusy = errStatus(http.StatusServiceUnavailable, "The simulator is busy; try again in a moment.")

// simBudgetError is the 422 for a run past the web budgets; the engine's message names the
// budget and what to shrink.
func simBudgetError(err error) error {
	msg := "This simulation needs more computing time than the web app allows: shorten duration_ms or use fewer members, partitions or events"
	if !errors.Is(err, context.DeadlineExceeded) {
		msg = "This simulation is over the web app's computing time and memory budget: it " + strings.TrimPrefix(err.Error(), rebalance.ErrBudget.Error()+": ")
	}
	return errStatus(http.StatusUnprocessableEntity, msg+". Or run it with `rehearse sim`.")
}

// acquireSim takes a slot, waiting at most simWaitForSlot; the caller must releaseSim.
func (s *Server) acquireSim(ctx context.Context) error {
	t := time.NewTimer(simWaitForSlot)
	defer t.Stop()
	select {
	case s.sim.slots <- struct{}{}:
		return nil
	case <-t.C:
		return errSimBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) releaseSim() { <-s.sim.slots }

// runSim returns the cached result for a scenario or runs it within the limits, once for all
// identical concurrent requests, taking a slot for the run. Only successful results are
// cached: a budget failure may depend on load.
func (s *Server) runSim(ctx context.Context, sc rebalance.Scenario, lim rebalance.Limits) (*rebalance.Result, error) {
	return s.simResult(ctx, sc, lim, false)
}

// simResult is runSim for a caller that may already hold a slot (the API holds one from the
// cache lookup to the end of encoding, so a result in memory always has a slot to its name).
// Such callers share runs only among themselves: a run that needs a slot must never be waited
// on by callers holding all of them.
func (s *Server) simResult(ctx context.Context, sc rebalance.Scenario, lim rebalance.Limits, holdsSlot bool) (*rebalance.Result, error) {
	key, err := sc.Key()
	if err != nil {
		return nil, err
	}
	if res, ok := s.sim.cache.get(key); ok {
		return res, nil
	}
	// The shared run must not die with the first caller's request: it runs on its own context
	// (bounded by simRunTimeout), and each caller stops waiting when its own request ends.
	ch := s.sim.flight.DoChan(fmt.Sprintf("%v|%+v|%s", holdsSlot, lim, key), func() (any, error) {
		return s.runOnce(context.WithoutCancel(ctx), key, sc, lim, !holdsSlot)
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*rebalance.Result), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Server) runOnce(ctx context.Context, key string, sc rebalance.Scenario, lim rebalance.Limits, takeSlot bool) (*rebalance.Result, error) {
	if res, ok := s.sim.cache.get(key); ok {
		return res, nil
	}
	if takeSlot {
		if err := s.acquireSim(ctx); err != nil {
			return nil, err
		}
		defer s.releaseSim()
	}
	ctx, cancel := context.WithTimeout(ctx, simRunTimeout)
	defer cancel()
	start := time.Now()
	res, err := rebalance.Run(ctx, sc, lim)
	s.metrics.SimulationRan(time.Since(start))
	if errors.Is(err, rebalance.ErrBudget) {
		return nil, simBudgetError(err)
	}
	if err != nil {
		return nil, err
	}
	s.sim.cache.put(key, res)
	return res, nil
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

// simCache is a bounded LRU of results keyed by the scenario's canonical JSON. Results are
// shared read-only between requests.
type simCache struct {
	mu                sync.Mutex
	max, maxW, weight int
	ll                *list.List
	m                 map[string]*list.Element
}

type simEntry struct {
	key    string
	res    *rebalance.Result
	weight int
}

func newSimCache(max, maxWeight int) *simCache {
	return &simCache{max: max, maxW: maxWeight, ll: list.New(), m: map[string]*list.Element{}}
}

// resultWeight approximates a result's memory by what it holds most of: segments and rounds.
func resultWeight(r *rebalance.Result) int {
	w := len(r.Rounds) + len(r.Items)
	for _, t := range r.Timeline {
		w += len(t.Segments)
	}
	return w
}

func (c *simCache) get(key string) (*rebalance.Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[key]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*simEntry).res, true
	}
	return nil, false
}

func (c *simCache) put(key string, res *rebalance.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return // same scenario, same result
	}
	w := resultBytes(res) // sim_weight.go
	if w > c.maxW {
		return
	}
	c.m[key] = c.ll.PushFront(&simEntry{key, res, w})
	c.weight += w
	for c.ll.Len() > c.max || c.weight > c.maxW {
		old := c.ll.Back()
		c.ll.Remove(old)
		e := old.Value.(*simEntry)
		delete(c.m, e.key)
		c.weight -= e.weight
	}
}

func (c *simCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}
