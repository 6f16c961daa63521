package rebalance

import (
	"cmp"
	"math"
	"slices"
)

// key orders events by (at, seq); seq keeps events at one time in the order they were
// scheduled, which makes every run deterministic. seq is unique, so the pop order is fully
// determined by the keys and does not depend on the heap's shape.
type key struct {
	at  int64
	seq uint64
}

func (k key) before(o key) bool {
	return k.at < o.at || k.at == o.at && k.seq < o.seq
}

// none is after every event: the head of an empty lane.
var none = key{math.MaxInt64, math.MaxUint64}

// event is a heap entry: its act is in queue.acts, so the heap itself stays pointer-free.
type event struct {
	key
	fn int32
}

// act is what an event does: a closure, or, for the events every round schedules once per
// member, a kind the protocol runs (groupProtocol.fire) with its arguments, which allocates
// nothing.
type act struct {
	fn   func() // nil for a typed act
	m    *member
	a, b int32 // the kind's arguments
	kind actKind
}

// actKind names a typed act; each protocol defines its own.
type actKind uint8

// queue is the simulation's agenda: acts by virtual time.
//
// h is a 4-ary min-heap typed to event rather than container/heap: the interface calls
// (Less, Swap through heap.Interface) were 10-20 % of big runs, and four children per node
// halve the depth, so a sift touches fewer cache lines of a large agenda.
//
// Most events are scheduled a fixed delay from now (rpc_ms, revoke_ms, ...). Those pushed
// with one delay come in (time, sequence) order, since now never goes back, so each delay has
// a lane, a plain FIFO holding its acts in line, and only events at arbitrary times go through
// the heap. The earliest event is the least of the heap's top and the lanes' heads (kept apart
// in headAt and headSeq, so finding it reads a cache line or two), by the same unique keys.
type queue struct {
	h     []event
	acts  []act // the heap's acts, by slot
	free  []int32
	lanes []lane // the fixed-delay lanes first (nfixed of them), then the blocks
	// headAt[i], headSeq[i]: lane i's first event's key, or none's; apart from the lanes and
	// from each other, so that finding the earliest head reads a cache line or two.
	headAt  []int64
	headSeq []uint64
	nfixed  int
	seq     uint64
	n       int         // events pending, in the heap and the lanes
	order   []uint64    // pushBlock's scratch
	spare   []laneEvent // a drained block lane's events, for the next block
}

// lane holds the events pushed with delay d, or one block (pushBlock), in order, from
// ev[head] on. A block lane goes when it drains.
type lane struct {
	d    int64
	ev   []laneEvent
	head int
}

type laneEvent struct {
	key
	a act
}

const arity = 4

func (q *queue) len() int { return q.n }

// push schedules a at time at.
func (q *queue) push(at int64, a act) {
	q.seq++
	q.n++
	var slot int32
	if n := len(q.free); n > 0 {
		slot = q.free[n-1]
		q.free = q.free[:n-1]
		q.acts[slot] = a
	} else {
		q.acts = append(q.acts, a)
		slot = int32(len(q.acts) - 1)
	}
	q.h = append(q.h, event{})
	q.up(len(q.h)-1, event{key{at, q.seq}, slot})
}

// pushAfter schedules a at time at, which is d after the current time: at never decreases
// from one call with this d to the next.
func (q *queue) pushAfter(d, at int64, a act) {
	q.seq++
	q.n++
	i := 0
	for i < q.nfixed && q.lanes[i].d != d {
		i++
	}
	if i == q.nfixed {
		q.lanes = slices.Insert(q.lanes, i, lane{d: d})
		q.headAt, q.headSeq = slices.Insert(q.headAt, i, none.at), slices.Insert(q.headSeq, i, none.seq)
		q.nfixed++
	}
	l := &q.lanes[i]
	if l.head == len(l.ev) {
		l.ev, l.head = l.ev[:0], 0
	} else if l.head >= 1024 && 2*l.head >= len(l.ev) {
		n := copy(l.ev, l.ev[l.head:])
		clear(l.ev[n:])
		l.ev, l.head = l.ev[:n], 0
	}
	if l.head == len(l.ev) {
		q.headAt[i], q.headSeq[i] = at, q.seq
	}
	l.ev = append(l.ev, laneEvent{key{at, q.seq}, a})
}

// pushBlock does what push(ats[k], acts[k]) for k = 0, 1, ... would, each time at least the
// current time, except that the block's sequence numbers are handed out in (time, k) order.
// They are consecutive either way, so every pop order is the same, and the block becomes a
// sorted lane instead of len(ats) heap entries.
func (q *queue) pushBlock(ats []int64, acts []act) {
	if len(ats) == 0 {
		return
	}
	// Sorted by (time, k): packed into one word when the times span less than 2^31 ms, the
	// keys being unique, any sort gives the stable sort's order.
	lo, hi := slices.Min(ats), slices.Max(ats)
	order := q.order[:0]
	if hi-lo < 1<<31 && uint64(len(ats)) < 1<<32 {
		for k, at := range ats {
			order = append(order, uint64(at-lo)<<32|uint64(k))
		}
		slices.Sort(order)
	} else {
		for k := range ats {
			order = append(order, uint64(k))
		}
		slices.SortStableFunc(order, func(a, b uint64) int { return cmp.Compare(ats[a], ats[b]) })
	}
	l := lane{ev: q.spare[:0]}
	q.spare = nil
	for _, o := range order {
		k := o & (1<<32 - 1)
		q.seq++
		l.ev = append(l.ev, laneEvent{key{ats[k], q.seq}, acts[k]})
	}
	q.n += len(ats)
	q.lanes = append(q.lanes, l)
	q.headAt, q.headSeq = append(q.headAt, l.ev[0].at), append(q.headSeq, l.ev[0].seq)
	q.order = order
}

// up places e at hole i or above it, moving parents down until e's place is found.
func (q *queue) up(i int, e event) {
	h := q.h
	for i > 0 {
		p := (i - 1) / arity
		if !e.before(h[p].key) {
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
			if h[j].before(h[best].key) {
				best = j
			}
		}
		if !h[best].before(e.key) {
			break
		}
		h[i] = h[best]
		i = best
	}
	h[i] = e
}

// pop removes the earliest event and returns its time and act; the queue must not be empty.
func (q *queue) pop() (int64, act) {
	i, k := -1, none
	if len(q.h) > 0 {
		k = q.h[0].key
	}
	seqs := q.headSeq[:len(q.headAt)]
	for j, at := range q.headAt {
		if at < k.at || at == k.at && seqs[j] < k.seq {
			i, k = j, key{at, seqs[j]}
		}
	}
	q.n--
	if i < 0 {
		e := q.h[0]
		n := len(q.h) - 1
		last := q.h[n]
		q.h = q.h[:n]
		if n > 0 {
			q.down(0, last)
		}
		a := q.acts[e.fn]
		q.acts[e.fn] = act{}
		q.free = append(q.free, e.fn)
		return k.at, a
	}
	l := &q.lanes[i]
	a := l.ev[l.head].a
	l.ev[l.head].a = act{} // what it refers to is not kept alive by the lane
	l.head++
	switch {
	case l.head < len(l.ev):
		q.headAt[i], q.headSeq[i] = l.ev[l.head].at, l.ev[l.head].seq
	case i < q.nfixed:
		q.headAt[i], q.headSeq[i] = none.at, none.seq
	default:
		// A drained block goes; its array serves the next block.
		q.spare = l.ev[:0]
		q.lanes = slices.Delete(q.lanes, i, i+1)
		q.headAt, q.headSeq = slices.Delete(q.headAt, i, i+1), slices.Delete(q.headSeq, i, i+1)
	}
	return k.at, a
}
