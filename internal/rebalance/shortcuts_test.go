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

// checkedRuns runs random scenarios of every kind, every preset in the variants given and a
// mid-size rolling restart in each, for the tests that check a shortcut against its plain form.
func checkedRuns(t *testing.T, labels ...string) {
	var scs []Scenario
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1500 {
		if s := randomScenario(rng); s.Validate(CLILimits) == nil {
			scs = append(scs, s)
		}
	}
	for _, p := range Presets() {
		base, _ := Preset(p.Name)
		for _, l := range labels {
			if s, err := Variant(base, l); err == nil {
				scs = append(scs, s)
			}
		}
	}
	for _, l := range labels {
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
}

// TestHeldListChecksOnlyWhatWasReleased checks every compaction of a member's held list, which
// re-checks only the items released since the last one, against checking every item: the
// items the member still owns, each once, in held's order.
func TestHeldListChecksOnlyWhatWasReleased(t *testing.T) {
	calls, wrong := 0, 0
	heldCheck = func(s *sim, m *member, before, after []int32) {
		calls++
		want := []int32{}
		seen := map[int32]bool{}
		for _, it := range before {
			if s.ownerOf(it) == m.idx && s.items[it].exists && !seen[it] {
				seen[it] = true
				want = append(want, it)
			}
		}
		if !slices.Equal(after, want) {
			if wrong++; wrong <= 3 {
				t.Errorf("at %d ms %s holds %v, checking every item finds %v", s.now, m.name, after, want)
			}
		}
	}
	defer func() { heldCheck = nil }()
	checkedRuns(t, "eager", "cooperative", "consumer", "cooperative+static", "eager+static")
	if calls < 1000 {
		t.Fatalf("only %d compactions were checked", calls)
	}
	t.Logf("%d compactions checked, %d wrong", calls, wrong)
}

// TestOrphansFollowWhatChanged checks every orphans answer of many runs (see checkedRuns)
// against a scan of every list:
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
	checkedRuns(t, "cooperative", "consumer", "eager+static")
	if calls < 1000 {
		t.Fatalf("only %d orphans calls were checked", calls)
	}
	t.Logf("%d orphans answers checked, %d wrong", calls, wrong)
}

// TestGiveExtraByCountsMatchesSorting checks giveExtra's counting against sorting the
// members by length (longest first), then index, and giving the first extra one more: lists
// of close lengths (counted) and of far apart ones (sorted), many ties.
func TestGiveExtraByCountsMatchesSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var s sim
	for trial := range 3000 {
		n := 1 + rng.IntN(40)
		spread := []int{2, 5, 50, 5000}[trial%4]
		owned := make([][]int32, n)
		total := 0
		for i := range owned {
			owned[i] = make([]int32, rng.IntN(spread))
			total += len(owned[i])
		}
		extra := rng.IntN(n)
		got := make([]int, n)
		s.giveExtra(owned, got, extra)
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return len(owned[b]) - len(owned[a]) })
		want := make([]int, n)
		for _, i := range order[:extra] {
			want[i] = 1
		}
		if !slices.Equal(got, want) {
			t.Fatalf("lengths %v, extra %d: gave %v, sorting gives %v", lens(owned), extra, got, want)
		}
	}
}

func lens(l [][]int32) []int {
	out := make([]int, len(l))
	for i, x := range l {
		out[i] = len(x)
	}
	return out
}
