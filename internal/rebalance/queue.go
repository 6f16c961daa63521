package rebalance

import "container/heap"

// event is a pending closure at a virtual time; seq keeps events at one time in the order they
// were scheduled, which makes every run deterministic.
type event struct {
	at  int64
	seq uint64
	fn  int32 // index into queue.fns: the heap itself stays pointer-free
}

// events is the heap.Interface over pending events, earliest (at, seq) first.
type events []event

func (h events) Len() int { return len(h) }
func (h events) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h events) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *events) Push(x any)   { *h = append(*h, x.(event)) }
func (h *events) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// queue is the simulation's agenda: closures by virtual time, slots reused.
type queue struct {
	h    events
	fns  []func()
	free []int32
	seq  uint64
}

func (q *queue) len() int { return len(q.h) }

func (q *queue) push(at int64, fn func()) {
	q.seq++
	var slot int32
	if n := len(q.free); n > 0 {
		slot, q.free = q.free[n-1], q.free[:n-1]
		q.fns[slot] = fn
	} else {
		slot = int32(len(q.fns))
		q.fns = append(q.fns, fn)
	}
	// Append and sift up with heap.Fix rather than heap.Push: no boxing of the event in an
	// interface, so no allocation per event.
	q.h = append(q.h, event{at: at, seq: q.seq, fn: slot})
	heap.Fix(&q.h, len(q.h)-1)
}

// peek is the time of the earliest event; the caller checks the queue is not empty.
func (q *queue) peek() int64 { return q.h[0].at }

// pop removes the earliest event and returns its time and closure.
func (q *queue) pop() (int64, func()) {
	e := q.h[0]
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	if n > 0 {
		heap.Fix(&q.h, 0)
	}
	fn := q.fns[e.fn]
	q.fns[e.fn] = nil
	q.free = append(q.free, e.fn)
	return e.at, fn
}
