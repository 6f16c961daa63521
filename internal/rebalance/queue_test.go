package rebalance

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestQueuePopsInTimeThenScheduleOrder interleaves pushes and pops at random and checks every
// pop against a plain sorted model: earliest time first, ties in the order they were pushed.
func TestQueuePopsInTimeThenScheduleOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var q queue
	type want struct {
		at int64
		id int
	}
	var model []want
	id := 0
	check := func() {
		at, fn := q.pop()
		fn() // sets popped to the event's id
		got := popped
		w := model[0]
		model = model[1:]
		if at != w.at || got != w.id {
			t.Fatalf("pop = (%d, #%d), want (%d, #%d)", at, got, w.at, w.id)
		}
	}
	for step := 0; step < 20000; step++ {
		if len(model) > 0 && r.IntN(3) == 0 {
			check()
			continue
		}
		at := int64(r.IntN(50)) // few distinct times: many ties
		n := id
		q.push(at, func() { popped = n })
		// Insert after every entry with at <= this one: ties keep push order.
		i, _ := slices.BinarySearchFunc(model, at+1, func(w want, t int64) int { return int(w.at - t) })
		model = slices.Insert(model, i, want{at, n})
		id++
	}
	for len(model) > 0 {
		check()
	}
	if q.len() != 0 {
		t.Fatalf("queue keeps %d events after the model emptied", q.len())
	}
}

var popped int
