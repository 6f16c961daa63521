package rebalance

import (
	"cmp"
	"slices"
)

// event is a pending act at a virtual time; seq keeps events at one time in the order they
// were scheduled, which makes every run deterministic.
type event struct {
	at  int64
	seq uint64
	fn  int32 // index into queue.acts: the heap itself stays pointer-free
}

// act is what an event does: a closure, or, for the events every round schedules once per
// member, a kind the protocol runs (groupProtocol.fire) with its arguments, which allocates
// nothing.
type act struct {
	fn   func() // nil for a typed act
	kind actKind
	m    *member
	a, b int // the kind's arguments
}

// actKind names a typed act; each protocol defines its own.
type actKind uint8

// before orders events by (at, seq). seq is unique, so the pop order is fully determined by the
// keys and does not depend on the heap's shape.
func (e event) before(o event) bool {
	return e.at < o.at || e.at == o.at && e.seq < o.seq
}

// queue is the simulation's agenda: acts by virtual time, slots reused.
//
// h is a 4-ary min-heap typed to event rather than container/heap: the interface calls
// (Less, Swap through heap.Interface) were 10-20 % of big runs, and four children per node
// halve the depth, so a sift touches fewer cache lines of a large agenda.
//
// Most events are scheduled a fixed delay from now (rpc_ms, revoke_ms, ...). Those pushed
// with one delay come in (time, sequence) order, since now never goes back, so each delay has
// a lane, a plain FIFO, and only events at arbitrary times go through the heap. The earliest
// event is the least of the heap's top and the lanes' heads, by the same unique keys.
type queue struct {
	h     []event
	lanes []lane
	acts  []act
	free  []int32
	seq   uint64
	n     int     // events pending, in the heap and the lanes
	order []int32 // pushBlock's scratch
	spare []event // a drained block lane's events, for the next block
}

// lane holds the events pushed with delay d, or one block (pushBlock), in order, from
// ev[head] on. A block lane goes when it drains.
type lane struct {
	d     int64
	block bool
	ev    []event
	head  int
}

const arity = 4

func (q *queue) len() int { return q.n }

// slot stores a and returns its index.
func (q *queue) slot(a act) int32 {
	q.seq++
	q.n++
	if n := len(q.free); n > 0 {
		s := q.free[n-1]
		q.free = q.free[:n-1]
		q.acts[s] = a
		return s
	}
	q.acts = append(q.acts, a)
	return int32(len(q.acts) - 1)
}

// push schedules a at time at.
func (q *queue) push(at int64, a act) {
	slot := q.slot(a)
	q.h = append(q.h, event{})
	q.up(len(q.h)-1, event{at: at, seq: q.seq, fn: slot})
}

// pushAfter schedules a at time at, which is d after the current time: at never decreases
// from one call with this d to the next.
func (q *queue) pushAfter(d, at int64, a act) {
	slot := q.slot(a)
	i := 0
	for i < len(q.lanes) && (q.lanes[i].block || q.lanes[i].d != d) {
		i++
	}
	if i == len(q.lanes) {
		q.lanes = append(q.lanes, lane{d: d})
	}
	l := &q.lanes[i]
	if l.head == len(l.ev) {
		l.ev, l.head = l.ev[:0], 0
	} else if l.head >= 1024 && 2*l.head >= len(l.ev) {
		l.ev = l.ev[:copy(l.ev, l.ev[l.head:])]
		l.head = 0
	}
	l.ev = append(l.ev, event{at: at, seq: q.seq, fn: slot})
}

// pushBlock does what push(ats[k], acts[k]) for k = 0, 1, ... would, each time at least the
// current time, except that the block's sequence numbers are handed out in (time, k) order.
// They are consecutive either way, so every pop order is the same, and the block becomes a
// sorted lane instead of len(ats) heap entries.
func (q *queue) pushBlock(ats []int64, acts []act) {
	if len(ats) == 0 {
		return
	}
	order := q.order[:0]
	for k := range ats {
		order = append(order, int32(k))
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(ats[a], ats[b]) })
	l := lane{block: true, ev: q.spare[:0]}
	q.spare = nil
	for _, k := range order {
		slot := q.slot(acts[k])
		l.ev = append(l.ev, event{at: ats[k], seq: q.seq, fn: slot})
	}
	q.lanes = append(q.lanes, l)
	q.order = order
}

// top is the earliest event: from lane i, or from the heap when i is -1.
func (q *queue) top() (int, event) {
	i, e := -2, event{}
	if len(q.h) > 0 {
		i, e = -1, q.h[0]
	}
	for k := range q.lanes {
		if l := &q.lanes[k]; l.head < len(l.ev) && (i == -2 || l.ev[l.head].before(e)) {
			i, e = k, l.ev[l.head]
		}
	}
	return i, e
}

// up places e at hole i or above it, moving parents down until e's place is found.
func (q *queue) up(i int, e event) {
	h := q.h
	for i > 0 {
		p := (i - 1) / arity
		if !e.before(h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
}

// down places e at hole i or below it, moving the smallest child up until e's place is found.
func (q *queue) down(i int, e event) {
	h := q.h
	n := len(h)
	for {
		c := i*arity + 1
		if c >= n {
			break
		}
		best := c
		for j := c + 1; j < c+arity && j < n; j++ {
			if h[j].before(h[best]) {
				best = j
			}
		}
		if !h[best].before(e) {
			break
		}
		h[i] = h[best]
		i = best
	}
	h[i] = e
}

// peek is the time of the earliest event; the caller checks the queue is not empty.
func (q *queue) peek() int64 {
	_, e := q.top()
	return e.at
}

// pop removes the earliest event and returns its time and act.
func (q *queue) pop() (int64, act) {
	i, e := q.top()
	if i >= 0 {
		l := &q.lanes[i]
		if l.head++; l.block && l.head == len(l.ev) {
			q.spare = l.ev
			q.lanes = slices.Delete(q.lanes, i, i+1)
		}
	} else {
		n := len(q.h) - 1
		last := q.h[n]
		q.h = q.h[:n]
		if n > 0 {
			q.down(0, last)
		}
	}
	q.n--
	a := q.acts[e.fn]
	q.acts[e.fn] = act{}
	q.free = append(q.free, e.fn)
	return e.at, a
}
