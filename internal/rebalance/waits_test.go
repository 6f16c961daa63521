package rebalance

import (
	"context"
	"testing"
)

// An eager rolling restart schedules a revoke and a start wait for every member in every
// round. They are records in a slab (waits.go), not closures. On this small group the whole run
// allocates 3.7 objects per member per round, against 6.7 with a closure per wait (the waits'
// three); the bound sits between, so an allocation per member and round added anywhere in the
// engine shows too. In the 1,000 × 100,000 benchmark the waits were 6.0 M of 6.4 M objects.
func TestItemWaitsAllocateNoClosures(t *testing.T) {
	const n = 100
	s := Scenario{Kind: "consumer", Topics: map[string]int{"events": 200}, Members: members(n, "m"),
		Events:     []Event{{AtMS: 10_000, Type: "rolling_restart", IntervalMS: 30_000, DownMS: 10_000}},
		DurationMS: 10_000 + n*30_000 + 120_000, Seed: 1}
	s, err := Variant(s.WithDefaults(), "eager")
	if err != nil {
		t.Fatal(err)
	}
	var rounds int
	allocs := testing.AllocsPerRun(1, func() {
		r, err := Run(context.Background(), s, CLILimits)
		if err != nil {
			t.Fatal(err)
		}
		rounds = r.Metrics.Rebalances
	})
	if rounds < n {
		t.Fatalf("the rolling restart ran %d rebalances, want at least %d", rounds, n)
	}
	if perMemberRound := allocs / float64(n*rounds); perMemberRound >= 5 {
		t.Errorf("%.0f allocations for %d members × %d rebalances: %.2f per member per round, want under 5",
			allocs, n, rounds, perMemberRound)
	}
}
