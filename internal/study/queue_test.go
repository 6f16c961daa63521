package study

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
)

func ids(cs []*deck.Card) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func sameIDs(a []string, b ...string) bool {
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

func TestBuildQueueOrder(t *testing.T) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	var cards []*deck.Card
	for _, id := range []string{"n1", "l-late", "r-late", "n2", "l-early", "r-early", "r-tomorrow", "l-later", "n3"} {
		cards = append(cards, &deck.Card{ID: id})
	}
	st := func(s srs.State, due time.Time) srs.Card {
		return srs.Card{State: s, Stability: 3, Difficulty: 5, Due: due, LastReview: now.Add(-time.Hour), Reps: 2}
	}
	states := map[string]srs.Card{
		"l-late":     st(srs.Relearning, now.Add(-time.Minute)),
		"l-early":    st(srs.Learning, now.Add(-time.Hour)),
		"l-later":    st(srs.Learning, now.Add(2*time.Hour)),
		"r-late":     st(srs.Review, now.Add(12*time.Hour)), // 22:00, before the 04:00 rollover
		"r-early":    st(srs.Review, now.Add(-48*time.Hour)),
		"r-tomorrow": st(srs.Review, now.Add(20*time.Hour)), // 06:00 tomorrow
		"gone":       st(srs.Learning, now.Add(-time.Hour)), // not in the deck: ignored
	}
	q := BuildQueue(QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: time.UTC, NewLimit: 2})
	if !sameIDs(ids(q.Learning), "l-early", "l-late") || !sameIDs(ids(q.Review), "r-early", "r-late") ||
		!sameIDs(ids(q.New), "n1", "n2") {
		t.Fatalf("queue learning=%v review=%v new=%v", ids(q.Learning), ids(q.Review), ids(q.New))
	}
	if q.Next().ID != "l-early" || !q.NextAt.IsZero() {
		t.Fatalf("next %s, NextAt %v", q.Next().ID, q.NextAt)
	}
	// New cards already introduced today use up the limit.
	q = BuildQueue(QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: time.UTC, NewLimit: 2, NewToday: 1})
	if !sameIDs(ids(q.New), "n1") {
		t.Fatalf("new with 1 of 2 used: %v", ids(q.New))
	}
}

func TestBuildQueueDoneAndLearnAhead(t *testing.T) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	cards := []*deck.Card{{ID: "a"}, {ID: "b"}, {ID: "n"}}
	states := map[string]srs.Card{
		"a": {State: srs.Learning, Stability: 1, Due: now.Add(30 * time.Minute), Reps: 1},
		"b": {State: srs.Review, Stability: 9, Due: now.Add(3 * 24 * time.Hour), Reps: 3},
	}
	q := BuildQueue(QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: time.UTC, NewLimit: 1, NewToday: 1})
	if q.Next() != nil || !q.NextAt.Equal(now.Add(30*time.Minute)) {
		t.Fatalf("done queue: next=%v NextAt=%v, want the learning card's due time", q.Next(), q.NextAt)
	}
	// Within 20 minutes of a learning card and nothing else left: show it early.
	states["a"] = srs.Card{State: srs.Learning, Stability: 1, Due: now.Add(5 * time.Minute), Reps: 1}
	q = BuildQueue(QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: time.UTC, NewLimit: 1, NewToday: 1})
	if q.Next() == nil || q.Next().ID != "a" {
		t.Fatalf("learn-ahead did not show the card due in 5 minutes")
	}
	// Only review cards left, due in 3 days: next is the 04:00 rollover of that day.
	delete(states, "a")
	q = BuildQueue(QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: time.UTC, NewLimit: 0})
	if want := time.Date(2026, 11, 5, 4, 0, 0, 0, time.UTC); !q.NextAt.Equal(want) {
		t.Fatalf("NextAt %v, want %v", q.NextAt, want)
	}
}

// The 04:00 day boundary in a non-UTC zone: a review due at 03:30 local tomorrow is due today,
// one due at 05:00 is not.
func TestBuildQueueDayBoundaryNewYork(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 3, 4, 30, 0, 0, time.UTC) // 23:30 on Nov 2 in New York
	cards := []*deck.Card{{ID: "at-0330"}, {ID: "at-0500"}}
	states := map[string]srs.Card{
		"at-0330": {State: srs.Review, Stability: 2, Due: time.Date(2026, 11, 3, 3, 30, 0, 0, ny), Reps: 2},
		"at-0500": {State: srs.Review, Stability: 2, Due: time.Date(2026, 11, 3, 5, 0, 0, 0, ny), Reps: 2},
	}
	q := BuildQueue(QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: ny})
	if !sameIDs(ids(q.Review), "at-0330") {
		t.Fatalf("due today in New York: %v, want only at-0330", ids(q.Review))
	}
	// For a user in UTC the same instant is 04:30 on Nov 3, a day that ends at 04:00 Nov 4: both
	// cards (08:30 and 10:00 UTC) are due.
	if q := BuildQueue(QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: time.UTC}); len(q.Review) != 2 {
		t.Fatalf("due today in UTC: %v, want both", ids(q.Review))
	}
	// In New York, once 04:00 passes the 05:00 card is due too.
	if q := BuildQueue(QueueInput{Cards: cards, States: srs.StatesOf(states), Now: time.Date(2026, 11, 3, 4, 0, 0, 0, ny), Loc: ny}); len(q.Review) != 2 {
		t.Fatalf("after the rollover in New York: %v, want both", ids(q.Review))
	}
}

// A user with history: 1,000 cards, 620 of them studied, 300 due (the bench deck after its
// rating runs). The sort used to look up both cards' states in the map for every comparison.
func BenchmarkBuildQueueWithHistory(b *testing.B) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	var cards []*deck.Card
	states := map[string]srs.Card{}
	for i := range 1000 {
		c := &deck.Card{ID: fmt.Sprintf("gen-%04d", i)}
		cards = append(cards, c)
		if i%8 < 5 { // 625 studied
			due := now.Add(time.Duration(i%97-48) * time.Hour)
			state := srs.Review
			if i%5 == 0 {
				state = srs.Learning
			}
			states[c.ID] = srs.Card{State: state, Stability: 3, Difficulty: 5, Due: due, Reps: 2}
		}
	}
	in := QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: time.UTC, NewLimit: 20}
	for b.Loop() {
		BuildQueue(in)
	}
}

// A user with no stored states gets the queue the general loop builds: the same when the map
// holds only a card outside the candidates, which sends BuildQueue through that loop.
func TestBuildQueueWithoutStatesMatchesTheLoop(t *testing.T) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	other := map[string]srs.Card{"not-a-candidate": {State: srs.Review, Due: now}}
	for _, n := range []int{0, 1, 5, 30} {
		var cards []*deck.Card
		for i := range n {
			cards = append(cards, &deck.Card{ID: fmt.Sprintf("c%d", i)})
		}
		for _, limit := range []int{0, 3, 20, 40} {
			for _, today := range []int{0, 2, 25} {
				in := QueueInput{Cards: cards, Now: now, Loc: time.UTC, NewLimit: limit, NewToday: today}
				fast := BuildQueue(in)
				in.States = srs.StatesOf(other)
				slow := BuildQueue(in)
				if !sameIDs(ids(fast.New), ids(slow.New)...) || len(fast.Learning)+len(fast.Review) != 0 || !fast.NextAt.Equal(slow.NextAt) {
					t.Errorf("%d cards, limit %d, %d today: new %v next %v; the loop: new %v next %v",
						n, limit, today, ids(fast.New), fast.NextAt, ids(slow.New), slow.NextAt)
				}
			}
		}
	}
}

// Until is a promise: the same input at any later moment before it builds the same queue.
// Small random decks, so that empty queues (where the learn-ahead window counts) are common.
func TestQueueStaysTheSameUntilItsUntil(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 848))
	ny, _ := time.LoadLocation("America/New_York")
	base := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	checked := 0
	for range 3000 {
		var cards []*deck.Card
		states := map[string]srs.Card{}
		for i := range 1 + rng.IntN(6) {
			c := &deck.Card{ID: fmt.Sprint("c", i)}
			cards = append(cards, c)
			if rng.IntN(4) == 0 {
				continue // new
			}
			st := []srs.State{srs.Learning, srs.Relearning, srs.Review}[rng.IntN(3)]
			due := base.Add(time.Duration(rng.Int64N(int64(72*time.Hour))) - 24*time.Hour)
			states[c.ID] = srs.Card{State: st, Stability: 3, Difficulty: 5, Due: due, Reps: 1}
		}
		loc := []*time.Location{time.UTC, ny}[rng.IntN(2)]
		in := QueueInput{Cards: cards, States: srs.StatesOf(states), Now: base, Loc: loc, NewLimit: rng.IntN(3), NewToday: rng.IntN(2)}
		q := BuildQueue(in)
		if !q.Until.After(in.Now) {
			t.Fatalf("Until %v is not after now %v", q.Until, in.Now)
		}
		for range 5 {
			later := in
			later.Now = in.Now.Add(time.Duration(rng.Int64N(int64(q.Until.Sub(in.Now)))))
			got := BuildQueue(later)
			if !sameQueue(got, q) {
				t.Fatalf("at %v (Until %v) the queue changed: learning %v review %v new %v next %v, was %v %v %v %v",
					later.Now, q.Until, ids(got.Learning), ids(got.Review), ids(got.New), got.NextAt,
					ids(q.Learning), ids(q.Review), ids(q.New), q.NextAt)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

func sameQueue(a, b Queue) bool {
	return slices.Equal(ids(a.Learning), ids(b.Learning)) && slices.Equal(ids(a.Review), ids(b.Review)) &&
		slices.Equal(ids(a.New), ids(b.New)) && a.NextAt.Equal(b.NextAt) && a.Until.Equal(b.Until)
}
