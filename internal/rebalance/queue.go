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

// event is a heap entry: its act is in queue.acts, so that sifts move 24 bytes, not 32.
type event struct {
	key
	x int32
}

// act is what an event does: a closure, or, for the events every round schedules once per
// member, a kind the protocol runs (groupProtocol.fire) with its arguments, which allocates
// nothing. A closure is kept by its slot in queue.fns, so the heap and the lanes hold no
// pointers: the collector never scans them and storing an event needs no write barrier.
// Four words of 32 bits: the compiler keeps an act (and a lane's event, with its key) in
// registers rather than copying it through memory.
type act struct {
	fn   int32 // a closure's slot plus one, or minus a typed act's kind
	m    int32 // the member's index
	a, b int32 // the kind's arguments
}

// kind is a typed act's kind.
func (a act) kind() actKind { return actKind(-a.fn) }

// isClosure reports whether a is a closure's act (see take).
func (a act) isClosure() bool { return a.fn > 0 }

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
// the heap. The earliest event is the least of the heap's top and the earliest lane head, by
// the same unique keys; the lanes that hold events form a small binary heap by head (lh).
type queue struct {
	h     []event
	acts  []act    // the heap's acts, by slot
	spots []int32  // unused slots of acts
	fns   []func() // the pending closures, by slot
	free  []int32  // unused slots of fns
	lanes []lane   // by lane slot: a fixed-delay lane keeps its slot, a drained block's is reused
	head  []key    // by lane slot: the first event's key (while the lane is in lh)
	lh    []int32  // the slots of the lanes holding events, a min-heap by head
	fixed []int32  // the fixed-delay lanes' slots, in the order their delays first came
	spare []int32  // drained block slots, for the next blocks
	seq   uint64
	n     int      // events pending, in the heap and the lanes
	order []uint64 // pushBlock's scratch
	// fast: the first lane's head is before bound, which is at or before every other lane's
	// head and the heap's top. Its events then pop without the heap checks, as long as they
	// come before bound: a round's notifications all fall at one time, and so do its
	// JoinGroups.
	fast  bool
	bound key
	// lastD and lastX+1 are the last fixed-delay lane pushAfter found (0: none yet).
	lastD int64
	lastX int32
}

// lane holds the events pushed with delay d, or one block (pushBlock), in order, from
// ev[head] on.
type lane struct {
	d     int64
	block bool
	ev    []laneEvent
	head  int
}

type laneEvent struct {
	key
	a act
}

const arity = 4

func (q *queue) len() int { return q.n }

// closure is the act that calls fn, kept in a free slot of fns.
func (q *queue) closure(fn func()) act {
	if n := len(q.free); n > 0 {
		x := q.free[n-1]
		q.free = q.free[:n-1]
		q.fns[x] = fn
		return act{fn: x + 1}
	}
	q.fns = append(q.fns, fn)
	return act{fn: int32(len(q.fns))}
}

// typed is a typed act.
func typed(k actKind, m, a, b int32) act { return act{fn: -int32(k), m: m, a: a, b: b} }

// take returns a popped closure act's function and frees its slot.
func (q *queue) take(a act) func() {
	x := a.fn - 1
	fn := q.fns[x]
	q.fns[x] = nil // what it refers to is not kept alive by the agenda
	q.free = append(q.free, x)
	return fn
}

// push schedules a at time at.
func (q *queue) push(at int64, a act) {
	q.seq++
	q.n++
	k := key{at, q.seq}
	if q.fast && k.before(q.bound) {
		q.fast = false
	}
	var x int32
	if n := len(q.spots); n > 0 {
		x = q.spots[n-1]
		q.spots = q.spots[:n-1]
		q.acts[x] = a
	} else {
		x = int32(len(q.acts))
		q.acts = append(q.acts, a)
	}
	q.h = append(q.h, event{})
	q.up(len(q.h)-1, event{k, x})
}

// pushAfter schedules a at time at, which is d after the current time: at never decreases
// from one call with this d to the next.
func (q *queue) pushAfter(d, at int64, a act) {
	q.seq++
	q.n++
	x := q.lastX - 1
	if x < 0 || q.lastD != d {
		x = q.fixedLane(d)
		q.lastD, q.lastX = d, x+1
	}
	l := &q.lanes[x]
	k := key{at, q.seq}
	if l.head == len(l.ev) {
		// Empty (a drained lane is reset): it joins the lane heap with this event at its head.
		l.ev = append(l.ev[:0], laneEvent{k, a})
		l.head = 0
		q.head[x] = k
		q.lhPush(x)
		return
	}
	if l.head >= 1024 && 2*l.head >= len(l.ev) {
		n := copy(l.ev, l.ev[l.head:])
		l.ev, l.head = l.ev[:n], 0
	}
	l.ev = append(l.ev, laneEvent{k, a})
}

// fixedLane is the slot of the lane for delay d, made on first use.
func (q *queue) fixedLane(d int64) int32 {
	for _, f := range q.fixed {
		if q.lanes[f].d == d {
			return f
		}
	}
	x := q.newLane(lane{d: d})
	q.fixed = append(q.fixed, x)
	return x
}

// newLane adds a lane and returns its slot.
func (q *queue) newLane(l lane) int32 {
	q.lanes = append(q.lanes, l)
	q.head = append(q.head, none)
	return int32(len(q.lanes) - 1)
}

// pushBlock does what push(ats[k], acts[k]) for k = 0, 1, ... would, each time at least the
// current time, except that the block's sequence numbers are handed out in (time, k) order.
// They are consecutive either way, so every pop order is the same, and the block becomes a
// sorted lane instead of len(ats) heap entries.
func (q *queue) pushBlock(ats []int64, acts []act) {
	if len(ats) == 0 {
		return
	}
	var x int32
	if n := len(q.spare); n > 0 {
		x, q.spare = q.spare[n-1], q.spare[:n-1]
	} else {
		x = q.newLane(lane{block: true})
	}
	l := &q.lanes[x]
	l.ev, l.head = slices.Grow(l.ev[:0], len(ats)), 0
	q.n += len(ats)
	defer func() {
		q.head[x] = l.ev[0].key
		q.lhPush(x)
	}()
	if slices.IsSorted(ats) {
		// As they come (a round's notifications mostly fall at one time).
		for k, at := range ats {
			q.seq++
			l.ev = append(l.ev, laneEvent{key{at, q.seq}, acts[k]})
		}
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
	for _, o := range order {
		k := o & (1<<32 - 1)
		q.seq++
		l.ev = append(l.ev, laneEvent{key{ats[k], q.seq}, acts[k]})
	}
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

// pop removes the earliest event and returns its time and act (a closure's is q.take(a));
// the queue must not be empty.
func (q *queue) pop() (int64, act) {
	q.n--
	if !q.fast && (len(q.lh) == 0 || len(q.h) > 0 && q.h[0].before(q.head[q.lh[0]])) {
		return q.popHeap()
	}
	x := q.lh[0]
	l := &q.lanes[x]
	ev, h := l.ev, l.head
	at, a := ev[h].at, ev[h].a
	if h++; h < len(ev) {
		l.head = h
		k := ev[h].key
		q.head[x] = k
		if q.fast && k.before(q.bound) {
			return at, a
		}
		q.lhDown(0)
		q.setBound()
		return at, a
	}
	q.drained(x)
	return at, a
}

// popHeap is pop of the heap's top.
func (q *queue) popHeap() (int64, act) {
	e := q.h[0]
	n := len(q.h) - 1
	last := q.h[n]
	q.h = q.h[:n]
	if n > 0 {
		q.down(0, last)
	}
	q.spots = append(q.spots, e.x)
	return e.at, q.acts[e.x]
}

// drained takes lane x, whose last event was popped, out of the lane heap, emptied; a block's
// slot serves a later block.
func (q *queue) drained(x int32) {
	q.fast = false
	l := &q.lanes[x]
	l.ev, l.head = l.ev[:0], 0
	last := len(q.lh) - 1
	q.lh[0] = q.lh[last]
	q.lh = q.lh[:last]
	if last > 0 {
		q.lhDown(0)
	}
	if l.block {
		q.spare = append(q.spare, x)
	}
}

// setBound sets bound to the least of the heap's top and the heads of the lanes after the
// first (its children in the lane heap), and fast when the first lane's head is before it.
func (q *queue) setBound() {
	b := none
	if len(q.h) > 0 {
		b = q.h[0].key
	}
	for c := 1; c <= 2 && c < len(q.lh); c++ {
		if h := q.head[q.lh[c]]; h.before(b) {
			b = h
		}
	}
	q.bound = b
	q.fast = len(q.lh) > 0 && q.head[q.lh[0]].before(b)
}

// lhPush adds lane slot x, whose head is set, to the lane heap.
func (q *queue) lhPush(x int32) {
	q.fast = false
	q.lh = append(q.lh, x)
	i := len(q.lh) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.head[x].before(q.head[q.lh[p]]) {
			break
		}
		q.lh[i] = q.lh[p]
		i = p
	}
	q.lh[i] = x
}

// lhDown moves the lane at position i down the lane heap to its place.
func (q *queue) lhDown(i int) {
	lh, x := q.lh, q.lh[i]
	for {
		c := 2*i + 1
		if c >= len(lh) {
			break
		}
		if c+1 < len(lh) && q.head[lh[c+1]].before(q.head[lh[c]]) {
			c++
		}
		if !q.head[lh[c]].before(q.head[x]) {
			break
		}
		lh[i] = lh[c]
		i = c
	}
	lh[i] = x
}
