package rebalance

import (
	"context"
	"sort"
	"testing"
)

func run(t *testing.T, s Scenario) *Result {
	t.Helper()
	r, err := Run(context.Background(), s, CLILimits)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(r.InvariantFailures) > 0 || r.Metrics.Violations > 0 {
		t.Fatalf("invariants broken: %v (violations %d)", r.InvariantFailures, r.Metrics.Violations)
	}
	return r
}

func cfgp(v int64) *int64 { return &v }

// final is the assignment after the last round (or nil).
func final(r *Result) map[string][]string {
	if len(r.Rounds) == 0 {
		return nil
	}
	return r.Rounds[len(r.Rounds)-1].Assignment
}

func total(m map[string][]string) int {
	n := 0
	for _, l := range m {
		n += len(l)
	}
	return n
}

func counts(m map[string][]string) []int {
	var out []int
	for _, l := range m {
		out = append(out, len(l))
	}
	sort.Ints(out)
	return out
}

// paused lists the items that were not processing at some point in [from, to].
func paused(r *Result, from, to int64) map[string]bool {
	out := map[string]bool{}
	for _, tl := range r.Timeline {
		for _, sg := range tl.Segments {
			if sg.State != StateProcessing && sg.ToMS > from && sg.FromMS < to {
				out[tl.Item] = true
			}
		}
	}
	return out
}

// pauses counts the separate non-processing stretches of an item after t = 0.
func pauses(tl ItemTimeline) int {
	n, in := 0, false
	for _, sg := range tl.Segments {
		stopped := sg.State != StateProcessing
		if stopped && !in && sg.FromMS > 0 {
			n++
		}
		in = stopped
	}
	return n
}

func eq(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
