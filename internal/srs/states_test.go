package srs

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// dbCard is a random state as the store reads one back: times from Unix milliseconds in UTC
// (0 the zero time), any state and step, counts up to int32's limit.
func dbCard(r *rand.Rand) Card {
	at := func() time.Time {
		if r.IntN(4) == 0 {
			return time.Time{}
		}
		return time.UnixMilli(r.Int64N(1<<42) - 1<<40).UTC()
	}
	return Card{State: State(r.IntN(4)), Step: r.IntN(12), Stability: r.ExpFloat64() * 100,
		Difficulty: 1 + 9*r.Float64(), Due: at(), LastReview: at(),
		Reps: r.IntN(math.MaxInt32), Lapses: r.IntN(1 << r.IntN(31))}
}

// Every state the store reads packs into the compact record and comes back equal, location and
// all; nothing falls back to a whole Card.
func TestStatesRoundTripStoredCards(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	want := map[string]Card{}
	for i := range 5000 {
		want[fmt.Sprintf("card-%d", i)] = dbCard(r)
	}
	want["edge"] = Card{State: Relearning, Step: math.MaxInt32, Reps: math.MaxInt32, Lapses: math.MaxInt32,
		Due: time.UnixMilli(-1).UTC(), LastReview: time.UnixMilli(math.MaxInt64 / 4).UTC()}
	st := StatesOf(want)
	if len(st.t.extra) != 0 {
		t.Fatalf("%d stored states did not pack", len(st.t.extra))
	}
	checkStates(t, st, want)
}

// States the database could not hold (other zones, nanoseconds, counts past int32, unknown
// states) come back exactly too.
func TestStatesKeepOddCardsWhole(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	want := map[string]Card{
		"zone":  {State: Review, Due: time.Date(2026, 11, 2, 9, 0, 0, 0, ny)},
		"local": {Due: time.UnixMilli(5).Local()},
		"nanos": {State: Learning, Due: time.Unix(100, 1).UTC()},
		"mono":  {LastReview: time.Now()},
		"reps":  {Reps: math.MaxInt32 + 1},
		"neg":   {Lapses: math.MinInt32 - 1},
		"step":  {Step: 1 << 40},
		"state": {State: 255},
		"high":  {State: 256},
		"plain": {State: Review, Stability: 2, Due: time.UnixMilli(9).UTC()},
	}
	st := StatesOf(want)
	if len(st.t.extra) != len(want)-1 {
		t.Fatalf("%d cards kept whole, want %d", len(st.t.extra), len(want)-1)
	}
	checkStates(t, st, want)
}

func checkStates(t *testing.T, st States, want map[string]Card) {
	t.Helper()
	if st.Len() != len(want) {
		t.Fatalf("Len %d, want %d", st.Len(), len(want))
	}
	for id, c := range want {
		got, ok := st.Get(id)
		if !ok || got != c || !reflect.DeepEqual(got, c) {
			t.Fatalf("%s: got %+v %v, want %+v", id, got, ok, c)
		}
	}
	if got := maps.Collect(st.All()); !reflect.DeepEqual(got, want) {
		t.Fatalf("All yields %d states, not the %d added", len(got), len(want))
	}
	for _, id := range []string{"", "card-", "absent", "card-50000"} {
		if _, ok := st.Get(id); ok {
			t.Fatalf("%q found", id)
		}
	}
}

func TestStatesBuilder(t *testing.T) {
	var zero States
	if _, ok := zero.Get("a"); ok || zero.Len() != 0 {
		t.Fatal("the zero States is not empty")
	}
	for range zero.All() {
		t.Fatal("the zero States yields")
	}
	var b StatesBuilder
	b.Add("a", Card{Reps: 1})
	b.Add("", Card{Reps: 2})
	b.Add("a", Card{Reps: 3}) // replaces
	st := b.States()
	if a, _ := st.Get("a"); a.Reps != 3 || st.Len() != 2 {
		t.Fatalf("a = %+v, Len %d: the later state of a repeated id does not win", a, st.Len())
	}
	if e, ok := st.Get(""); !ok || e.Reps != 2 {
		t.Fatal("the empty id is lost")
	}
	if again := b.States(); again.Len() != 0 {
		t.Fatal("the builder was not emptied")
	}
}

// With matches a map given the same changes, one at a time and several at once: replacing a
// state, adding an id, a state that does not pack, starting from empty; the States it was
// called on stays as it was.
func TestStatesWithMatchesAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	want := map[string]Card{}
	var st States
	for i := range 400 {
		id := fmt.Sprintf("card-%d", r.IntN(60)) // mostly ids already there
		c := dbCard(r)
		if i%50 == 7 { // another zone: kept whole
			c.Due = time.UnixMilli(int64(i) * 1000).In(time.FixedZone("x", 3600))
		}
		before, old := st, maps.Clone(want)
		st, want[id] = st.With(Change{id, c}), c
		if st.Len() != len(want) {
			t.Fatalf("step %d: Len %d, want %d", i, st.Len(), len(want))
		}
		for k, w := range want {
			if g, ok := st.Get(k); !ok || g != w {
				t.Fatalf("step %d, %s: got %+v, want %+v", i, k, g, w)
			}
		}
		if before.Len() != len(old) {
			t.Fatalf("step %d: the old States changed length", i)
		}
		for k, w := range old {
			if g, _ := before.Get(k); g != w {
				t.Fatalf("step %d: the old States changed at %s", i, k)
			}
		}
	}
}

func TestStatesWithSeveralAtOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	want := map[string]Card{}
	var st States
	for i := range 100 {
		var changes []Change
		for range r.IntN(6) {
			id := fmt.Sprintf("card-%d", r.IntN(40))
			c := dbCard(r)
			if r.IntN(10) == 0 {
				c.LastReview = time.UnixMilli(int64(i)).In(time.FixedZone("y", -7200))
			}
			changes = append(changes, Change{id, c})
			want[id] = c // in order: a later change of an id wins
		}
		st = st.With(changes...)
		if st.Len() != len(want) {
			t.Fatalf("step %d: Len %d, want %d", i, st.Len(), len(want))
		}
		for k, w := range want {
			if g, ok := st.Get(k); !ok || g != w {
				t.Fatalf("step %d, %s: got %+v, want %+v", i, k, g, w)
			}
		}
	}
}
