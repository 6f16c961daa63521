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
		at, a := q.pop()
		a.fn() // sets popped to the event's id
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
		q.push(at, q.closure(func() { popped = n }))
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

// TestQueueLanesKeepTimeThenScheduleOrder mixes events at arbitrary times (the heap) with
// events a fixed delay from the current time (the lanes, one per delay) and blocks of events
// (pushBlock), the current time being the last popped event's, as in a run, and checks every
// pop against the sorted model.
func TestQueueLanesKeepTimeThenScheduleOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var q queue
	type want struct {
		at int64
		id int
	}
	var model []want
	now, id := int64(0), 0
	for step := 0; step < 50000; step++ {
		if len(model) > 0 && r.IntN(2) == 0 {
			at, a := q.pop()
			a.fn()
			w := model[0]
			model = model[1:]
			if at != w.at || popped != w.id {
				t.Fatalf("step %d: pop = (%d, #%d), want (%d, #%d)", step, at, popped, w.at, w.id)
			}
			now = at
			continue
		}
		if r.IntN(10) == 0 {
			// A block: as if each were pushed in turn, with many tied times; now and then
			// one spanning more than 2^31 ms, which pushBlock sorts another way.
			var ats []int64
			var fns []stored
			far := r.IntN(4) == 0
			for k := range r.IntN(30) {
				n, at := id+k, now+int64(r.IntN(25))
				if far && r.IntN(3) == 0 {
					at += 1 << 32
				}
				ats, fns = append(ats, at), append(fns, q.closure(func() { popped = n }))
				i, _ := slices.BinarySearchFunc(model, at+1, func(w want, t int64) int { return int(w.at - t) })
				model = slices.Insert(model, i, want{at, n})
			}
			q.pushBlock(ats, fns)
			id += len(ats)
			continue
		}
		n := id
		var at int64
		if r.IntN(3) == 0 {
			at = now + int64(r.IntN(40))
			q.push(at, q.closure(func() { popped = n }))
		} else {
			d := []int64{0, 5, 5, 20, -3}[r.IntN(5)] // few delays, some zero or negative
			at = max(now+d, now)
			q.pushAfter(d, at, q.closure(func() { popped = n }))
		}
		i, _ := slices.BinarySearchFunc(model, at+1, func(w want, t int64) int { return int(w.at - t) })
		model = slices.Insert(model, i, want{at, n})
		id++
		if q.len() != len(model) {
			t.Fatalf("step %d: len = %d, want %d", step, q.len(), len(model))
		}
	}
	for len(model) > 0 {
		at, a := q.pop()
		a.fn()
		if w := model[0]; at != w.at || popped != w.id {
			t.Fatalf("drain: pop = (%d, #%d), want (%d, #%d)", at, popped, w.at, w.id)
		}
		model = model[1:]
	}
}
