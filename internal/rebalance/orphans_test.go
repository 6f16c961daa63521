package rebalance

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// orphansByScan is orphans without memory: mark every list, then walk the live items.
func orphansByScan(s *sim, owned [][]int32) []int32 {
	held := make([]bool, len(s.items))
	for _, o := range owned {
		for _, it := range o {
			held[it] = true
		}
	}
	out := []int32{}
	for g := range s.groups {
		for _, it := range s.liveItems(g) {
			if !held[it] {
				out = append(out, it)
			}
		}
	}
	return out
}

// TestOrphansFollowWhatChanged checks every orphans answer of many runs (random scenarios of
// every kind, the sticky presets, a mid-size rolling restart) against a scan of every list:
// the counts carried from call to call must name the same items in the same order.
func TestOrphansFollowWhatChanged(t *testing.T) {
	calls, wrong := 0, 0
	orphansCheck = func(s *sim, owned [][]int32, got []int32) {
		calls++
		if want := orphansByScan(s, owned); !slices.Equal(got, want) {
			if wrong++; wrong <= 3 {
				t.Errorf("at %d ms: orphans %v, a scan of the lists finds %v", s.now, got, want)
			}
		}
	}
	defer func() { orphansCheck = nil }()
	var scs []Scenario
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1500 {
		if s := randomScenario(rng); s.Validate(CLILimits) == nil {
			scs = append(scs, s)
		}
	}
	for _, p := range Presets() {
		base, _ := Preset(p.Name)
		for _, l := range []string{"cooperative", "consumer", "eager+static"} {
			if s, err := Variant(base, l); err == nil {
				scs = append(scs, s)
			}
		}
	}
	for _, l := range []string{"cooperative", "consumer"} {
		s := Scenario{Kind: "consumer", Topics: map[string]int{"a": 700, "b": 300}, Members: members(40, "m"),
			Events:     []Event{{AtMS: 10_000, Type: "rolling_restart", IntervalMS: 30_000, DownMS: 10_000}},
			DurationMS: 10_000 + 40*30_000 + 120_000, Seed: 3}
		s, _ = Variant(s.WithDefaults(), l)
		scs = append(scs, s)
	}
	for _, s := range scs {
		if _, err := Run(context.Background(), s, CLILimits); err != nil {
			t.Fatal(err)
		}
	}
	if calls < 1000 {
		t.Fatalf("only %d orphans calls were checked", calls)
	}
	t.Logf("%d orphans answers checked, %d wrong", calls, wrong)
}
