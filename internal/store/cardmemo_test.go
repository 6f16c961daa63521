package store

import (
	"context"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// A memo kept with a card's progress comes back with it until the user's next write, replaces
// the one before it, is weighed in the cache's bound with the progress, and is refused when the
// ticket is old.
func TestCardProgressMemoLastsUntilAWrite(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	answer(t, db, uid, "c1", srs.Good, t0, ModeStudy)
	c := &db.progress
	balanced := func(when string) {
		t.Helper()
		sum := 0
		for _, u := range c.users {
			sum += u.weight
		}
		if sum != c.weight {
			t.Fatalf("%s: the users weigh %d, the cache counts %d", when, sum, c.weight)
		}
	}
	read := func() (CardProgress, any, CardTicket) {
		t.Helper()
		p, memo, tk, err := db.CardProgressMemo(ctx, uid, "c1")
		if err != nil {
			t.Fatal(err)
		}
		return p, memo, tk
	}
	p, memo, tk := read()
	if memo != nil {
		t.Fatalf("a memo before any was kept: %v", memo)
	}
	// The progress is weighed with room for its memo from the start, so keeping one adds nothing.
	if want := 2 * (1 + len(p.History)); c.users[uid].weight < want {
		t.Fatalf("the user's cached progress weighs %d rows, less than the card's %d with its memo", c.users[uid].weight, want)
	}
	before := c.weight
	db.KeepCardProgressMemo(uid, "c1", tk, "first")
	if _, memo, _ = read(); memo != "first" {
		t.Fatalf("kept memo reads back as %v", memo)
	}
	balanced("after keeping")
	_, _, tk = read()
	db.KeepCardProgressMemo(uid, "c1", tk, "second")
	if _, memo, _ = read(); memo != "second" || c.weight != before {
		t.Fatalf("a second memo: reads %v, the cache's weight went from %d to %d", memo, before, c.weight)
	}
	if q, _ := db.CardProgress(ctx, uid, "c1"); q.memo != nil {
		t.Fatal("CardProgress hands out the memo")
	}
	balanced("after replacing")

	_, _, old := read()
	answer(t, db, uid, "c1", srs.Good, t0.Add(time.Hour), ModeStudy)
	if p, memo, _ = read(); memo != nil || len(p.History) != 2 {
		t.Fatalf("after an answer: memo %v, %d answers", memo, len(p.History))
	}
	db.KeepCardProgressMemo(uid, "c1", old, "stale")
	if _, memo, _ = read(); memo != nil {
		t.Fatalf("a memo with a ticket from before the answer was kept: %v", memo)
	}
	balanced("after the answer")
	db.KeepCardProgressMemo(uid, "never", old, "uncached") // no progress cached: nothing to keep it with
	balanced("after a memo for an uncached card")
}
