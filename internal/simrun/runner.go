// Package simrun runs rebalance scenarios for the web app: results kept in a bounded cache,
// identical concurrent runs shared, at most a few at once, each within a wall-clock cap on top
// of the engine's step budget. It knows nothing of HTTP: the server maps its errors.
package simrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/rehearse/rehearse/internal/rebalance"
)

const (
	cacheSize   = 128              // results kept; a card needs one per variant (bytes: CacheBytes)
	runTimeout  = 5 * time.Second  // wall-clock cap per run, on top of the step budget
	MaxParallel = 2                // runs and API encodings at once (CPU-bound, and each holds a result's memory)
	waitForSlot = 10 * time.Second // how long a caller queues for a slot
)

// ErrBusy: every slot stayed taken for the whole wait.
var ErrBusy = errors.New("the simulator is busy; try again in a moment")

// BudgetError is a run past its budgets (steps, segments, the wall-clock cap); Msg says which
// and what to shrink, in words for the person who asked.
type BudgetError struct{ Msg string }

func (e *BudgetError) Error() string { return e.Msg }

// Runner is the web app's simulator. Web is the bound for scenarios people submit (the lab,
// the API, a card's what-if); a field so tests can shrink it.
type Runner struct {
	Cache  *Cache
	Web    rebalance.Limits
	slots  chan struct{}      // held by every run and every API encoding
	flight singleflight.Group // identical concurrent scenarios share one run
	ran    func(time.Duration)
}

// New makes a runner; ran, if set, is told how long each run took (metrics).
func New(ran func(time.Duration)) *Runner {
	if ran == nil {
		ran = func(time.Duration) {}
	}
	return &Runner{Cache: NewCache(cacheSize, CacheBytes), Web: rebalance.WebLimits, slots: make(chan struct{}, MaxParallel), ran: ran}
}

// Acquire takes a slot, waiting at most a while (ErrBusy); the caller must Release it.
func (r *Runner) Acquire(ctx context.Context) error {
	t := time.NewTimer(waitForSlot)
	defer t.Stop()
	select {
	case r.slots <- struct{}{}:
		return nil
	case <-t.C:
		return ErrBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release gives back a slot taken by Acquire.
func (r *Runner) Release() { <-r.slots }

// Run returns the cached result for a scenario or runs it within the limits, once for all
// identical concurrent requests, taking a slot for the run. Only successful results are
// cached: a budget failure may depend on load.
func (r *Runner) Run(ctx context.Context, sc rebalance.Scenario, lim rebalance.Limits) (*rebalance.Result, error) {
	return r.Result(ctx, sc, lim, false)
}

// Result is Run for a caller that may already hold a slot (the API holds one from the cache
// lookup to the end of encoding, so a result in memory always has a slot to its name). Such
// callers share runs only among themselves: a run that needs a slot must never be waited on by
// callers holding all of them.
func (r *Runner) Result(ctx context.Context, sc rebalance.Scenario, lim rebalance.Limits, holdsSlot bool) (*rebalance.Result, error) {
	key, err := sc.Key()
	if err != nil {
		return nil, err
	}
	if res, ok := r.Cache.Get(key); ok {
		return res, nil
	}
	// The shared run must not die with the first caller's request: it runs on its own context
	// (bounded by runTimeout), and each caller stops waiting when its own request ends.
	ch := r.flight.DoChan(fmt.Sprintf("%v|%+v|%s", holdsSlot, lim, key), func() (any, error) {
		return r.runOnce(context.WithoutCancel(ctx), key, sc, lim, !holdsSlot)
	})
	select {
	case x := <-ch:
		if x.Err != nil {
			return nil, x.Err
		}
		return x.Val.(*rebalance.Result), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (r *Runner) runOnce(ctx context.Context, key string, sc rebalance.Scenario, lim rebalance.Limits, takeSlot bool) (*rebalance.Result, error) {
	if res, ok := r.Cache.Get(key); ok {
		return res, nil
	}
	if takeSlot {
		if err := r.Acquire(ctx); err != nil {
			return nil, err
		}
		defer r.Release()
	}
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	start := time.Now()
	res, err := rebalance.Run(ctx, sc, lim)
	r.ran(time.Since(start))
	if errors.Is(err, rebalance.ErrBudget) {
		return nil, budgetError(err)
	}
	if err != nil {
		return nil, err
	}
	r.Cache.Put(key, res)
	return res, nil
}

// budgetError words a run past the budgets; the engine's message names the budget and what to
// shrink.
func budgetError(err error) error {
	msg := "This simulation needs more computing time than the web app allows: shorten duration_ms or use fewer members, partitions or events"
	if !errors.Is(err, context.DeadlineExceeded) {
		msg = "This simulation is over the web app's computing time and memory budget: it " + strings.TrimPrefix(err.Error(), rebalance.ErrBudget.Error()+": ")
	}
	return &BudgetError{msg + ". Or run it with `rehearse sim`."}
}
