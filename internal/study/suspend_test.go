package study

import (
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
)

func TestSuspendedCardsLeaveTheQueue(t *testing.T) {
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	cards := []*deck.Card{{ID: "n1"}, {ID: "n2"}, {ID: "n3"}, {ID: "r1"}, {ID: "l1"}}
	states := map[string]srs.Card{
		"r1": {State: srs.Review, Stability: 3, Difficulty: 5, Due: now.Add(-time.Hour), LastReview: now.Add(-72 * time.Hour), Reps: 3},
		"l1": {State: srs.Learning, Stability: 1, Difficulty: 5, Due: now.Add(-time.Minute), LastReview: now.Add(-time.Hour), Reps: 1},
	}
	in := QueueInput{Cards: cards, States: srs.StatesOf(states), Now: now, Loc: time.UTC, NewLimit: 2}
	q := BuildQueue(in)
	if !sameIDs(ids(q.New), "n1", "n2") || !sameIDs(ids(q.Review), "r1") || !sameIDs(ids(q.Learning), "l1") {
		t.Fatalf("before: learning=%v review=%v new=%v", ids(q.Learning), ids(q.Review), ids(q.New))
	}
	in.Suspended = map[string]bool{"n1": true, "r1": true, "l1": true}
	q = BuildQueue(in)
	// The next new card takes the suspended one's place; the due ones are gone.
	if !sameIDs(ids(q.New), "n2", "n3") || len(q.Review) != 0 || len(q.Learning) != 0 {
		t.Fatalf("suspended: learning=%v review=%v new=%v", ids(q.Learning), ids(q.Review), ids(q.New))
	}
	// With no states at all (the fast path), a suspended new card is still left out.
	q = BuildQueue(QueueInput{Cards: cards, Now: now, Loc: time.UTC, NewLimit: 5, Suspended: map[string]bool{"n2": true}})
	if !sameIDs(ids(q.New), "n1", "n3", "r1", "l1") {
		t.Fatalf("fast path: %v", ids(q.New))
	}
	// Studying ahead is a higher limit for the session: more new cards today.
	q = BuildQueue(QueueInput{Cards: cards, Now: now, Loc: time.UTC, NewLimit: 4, NewToday: 2})
	if !sameIDs(ids(q.New), "n1", "n2") {
		t.Fatalf("ahead: %v", ids(q.New))
	}
}
