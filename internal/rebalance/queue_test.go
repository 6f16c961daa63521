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
		q.take(a)() // sets popped to the event's id
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
	t.Run("dense", func(t *testing.T) { checkLanes(t, 3, []int64{0, 5, 5, 20, -3}, 3, 40, 25) })
	// Lanes far apart and blocks at one time, as in a big run's rounds: long runs of events
	// pop from one lane before the next lane's head (the queue's fast path), while events at
	// arbitrary times land before that head.
	t.Run("sparse", func(t *testing.T) { checkLanes(t, 5, []int64{50, 50, 200, 7}, 15, 60, 1) })
}

// checkLanes runs the lanes test with these delays, one push in heapEvery at an arbitrary
// time up to heapSpan after the current time, and block events up to blockSpan after it.
func checkLanes(t *testing.T, seed uint64, delays []int64, heapEvery, heapSpan, blockSpan int) {
	r := rand.New(rand.NewPCG(seed, 4))
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
			q.take(a)()
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
			var fns []act
			far := r.IntN(4) == 0
			for k := range r.IntN(30) {
				n, at := id+k, now+int64(r.IntN(blockSpan))
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
		if r.IntN(heapEvery) == 0 {
			at = now + int64(r.IntN(heapSpan))
			q.push(at, q.closure(func() { popped = n }))
		} else {
			d := delays[r.IntN(len(delays))] // few delays, some zero or negative
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
		q.take(a)()
		if w := model[0]; at != w.at || popped != w.id {
			t.Fatalf("drain: pop = (%d, #%d), want (%d, #%d)", at, popped, w.at, w.id)
		}
		model = model[1:]
	}
}

// TestQueueRunOfOneLaneYieldsToEarlierPushes: while events pop from one lane ahead of every
// other lane (the queue's fast path), an event pushed to the heap, to a new lane or in a
// block that falls before that lane's next head must pop first.
func TestQueueRunOfOneLaneYieldsToEarlierPushes(t *testing.T) {
	for _, way := range []string{"heap", "lane", "block"} {
		var q queue
		var got []int
		push := func(d, at int64, n int) { q.pushAfter(d, at, q.closure(func() { got = append(got, n) })) }
		push(10, 10, 1)
		push(10, 12, 2)
		push(10, 14, 4)
		push(50, 60, 5) // another lane, far ahead: the bound of lane 10's run
		pop := func() {
			_, a := q.pop()
			q.take(a)()
		}
		pop() // 1, at 10
		pop() // 2, at 12: the run goes on
		interloper := q.closure(func() { got = append(got, 3) })
		switch way {
		case "heap":
			q.push(13, interloper)
		case "lane":
			q.pushAfter(1, 13, interloper)
		case "block":
			q.pushBlock([]int64{13}, []act{interloper})
		}
		for q.len() > 0 {
			pop()
		}
		if !slices.Equal(got, []int{1, 2, 3, 4, 5}) {
			t.Errorf("%s: popped %v, want [1 2 3 4 5]", way, got)
		}
	}
}
