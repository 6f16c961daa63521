package rebalance

import (
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
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

// roomByInterface is roomHeap's order through container/heap, the plain form.
type roomByInterface struct{ roomHeap }

func (h *roomByInterface) Len() int { return len(h.idx) }
func (h *roomByInterface) Less(a, b int) bool {
	x, y := h.idx[a], h.idx[b] // fewest of group g first, then lowest index
	if cx, cy := h.cnt[x*h.G+h.g], h.cnt[y*h.G+h.g]; cx != cy {
		return cx < cy
	}
	return x < y
}
func (h *roomByInterface) Swap(a, b int) { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *roomByInterface) Push(x any)    { h.idx = append(h.idx, x.(int)) }
func (h *roomByInterface) Pop() any {
	v := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return v
}

// TestRoomHeapDealsAsContainerHeap deals partitions to members with room (stickyLists's loop)
// through roomHeap and through container/heap: the same members must get them, in order.
func TestRoomHeapDealsAsContainerHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for trial := range 2000 {
		n, G := 1+rng.IntN(30), 1+rng.IntN(3)
		g := rng.IntN(G)
		room := make([]int, n)
		var members []int
		for i := range n {
			if room[i] = rng.IntN(4); room[i] > 0 {
				members = append(members, i)
			}
		}
		deal := func(push func(int), init func(), top func() int, pop func(), fix func(), size func() int, cnt []int32) []int {
			for _, i := range members {
				push(i)
			}
			init()
			left := slices.Clone(room)
			var got []int
			for size() > 0 {
				i := top()
				got = append(got, i)
				cnt[i*G+g]++
				if left[i]--; left[i] == 0 {
					pop()
				}
				fix()
			}
			return got
		}
		counts := make([]int32, n*G)
		for k := range counts {
			counts[k] = int32(rng.IntN(3))
		}
		a := &roomHeap{cnt: slices.Clone(counts), g: g, G: G}
		got := deal(func(i int) { a.idx = append(a.idx, i) }, a.init, func() int { return a.idx[0] },
			func() { a.idx[0] = a.idx[len(a.idx)-1]; a.idx = a.idx[:len(a.idx)-1] }, func() { a.down(0) },
			func() int { return len(a.idx) }, a.cnt)
		b := &roomByInterface{roomHeap{cnt: slices.Clone(counts), g: g, G: G}}
		want := deal(func(i int) { b.idx = append(b.idx, i) }, func() { heap.Init(b) }, func() int { return b.idx[0] },
			func() { b.idx[0] = b.idx[len(b.idx)-1]; b.idx = b.idx[:len(b.idx)-1] },
			func() {
				if len(b.idx) > 0 {
					heap.Fix(b, 0)
				}
			}, func() int { return len(b.idx) }, b.cnt)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: roomHeap deals to %v, container/heap to %v", trial, got, want)
		}
	}
}

// TestHeartbeatLaneMatchesHeap runs KIP-848 scenarios with the next-tick heartbeats in the
// agenda's lane for that delay and with every heartbeat in the heap: the results must be the
// same, byte for byte.
func TestHeartbeatLaneMatchesHeap(t *testing.T) {
	var scs []Scenario
	rng := rand.New(rand.NewPCG(11, 12))
	for len(scs) < 300 {
		if s := randomScenario(rng); s.Protocol == "consumer" && s.Validate(CLILimits) == nil {
			scs = append(scs, s)
		}
	}
	for _, p := range Presets() {
		base, _ := Preset(p.Name)
		if s, err := Variant(base, "consumer"); err == nil {
			scs = append(scs, s)
		}
	}
	s := Scenario{Kind: "consumer", Topics: map[string]int{"a": 700, "b": 300}, Members: members(40, "m"),
		Events:     []Event{{AtMS: 10_000, Type: "rolling_restart", IntervalMS: 30_000, DownMS: 10_000}},
		DurationMS: 10_000 + 40*30_000 + 120_000, Seed: 3}
	s, _ = Variant(s.WithDefaults(), "consumer")
	scs = append(scs, s)
	run := func(s Scenario, inHeap bool) string {
		hbInHeap = inHeap
		defer func() { hbInHeap = false }()
		r, err := Run(context.Background(), s, CLILimits)
		b, _ := json.Marshal(r)
		return fmt.Sprintf("%s %v", b, err)
	}
	for i, s := range scs {
		if run(s, false) != run(s, true) {
			t.Fatalf("scenario %d: heartbeats through the lane change the result", i)
		}
	}
}
