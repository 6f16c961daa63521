package rebalance

// event is a pending closure at a virtual time; seq keeps events at one time in the order they
// were scheduled, which makes every run deterministic.
type event struct {
	at  int64
	seq uint64
	fn  int32 // index into queue.fns: the heap itself stays pointer-free
}

// before orders events by (at, seq). seq is unique, so the pop order is fully determined by the
// keys and does not depend on the heap's shape.
func (e event) before(o event) bool {
	return e.at < o.at || e.at == o.at && e.seq < o.seq
}

// queue is the simulation's agenda: closures by virtual time, slots reused.
//
// h is a 4-ary min-heap typed to event rather than container/heap: the interface calls
// (Less, Swap through heap.Interface) were 10-20 % of big runs, and four children per node
// halve the depth, so a sift touches fewer cache lines of a large agenda.
type queue struct {
	h    []event
	fns  []func()
	free []int32
	seq  uint64
}

const arity = 4

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
	q.h = append(q.h, event{})
	q.up(len(q.h)-1, event{at: at, seq: q.seq, fn: slot})
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
func (q *queue) peek() int64 { return q.h[0].at }

// pop removes the earliest event and returns its time and closure.
func (q *queue) pop() (int64, func()) {
	e := q.h[0]
	n := len(q.h) - 1
	last := q.h[n]
	q.h = q.h[:n]
	if n > 0 {
		q.down(0, last)
	}
	fn := q.fns[e.fn]
	q.fns[e.fn] = nil
	q.free = append(q.free, e.fn)
	return e.at, fn
}
