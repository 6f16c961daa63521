package rebalance

import (
	"math"
	"slices"
	"sort"
)

// sortItems orders items canonically; with one topic (connector) index order is that order.
func (s *sim) sortItems(its []int32) {
	if len(s.groups) == 1 && s.kind == kindConsumer {
		s.sortAsc(its)
		return
	}
	sort.Slice(its, func(a, b int) bool { return s.less(its[a], its[b]) })
}

// sortAsc sorts its ascending. A list that is a sorted run and a shorter tail (a member's last
// assignment and what it gained since) costs sorting the tail and one merge.
func (s *sim) sortAsc(its []int32) {
	p := 1
	for p < len(its) && its[p-1] <= its[p] {
		p++
	}
	if p >= len(its) {
		return
	}
	if 2*p < len(its) {
		slices.Sort(its)
		return
	}
	tail := append(s.sortBuf[:0], its[p:]...)
	slices.Sort(tail)
	// Merge from the back: its[:p] and tail into its.
	i, j := p-1, len(tail)-1
	for k := len(its) - 1; j >= 0; k-- {
		if i >= 0 && its[i] > tail[j] {
			its[k] = its[i]
			i--
		} else {
			its[k] = tail[j]
			j--
		}
	}
	s.sortBuf = tail
}

// Assignors work on member indices (ws, sorted by name) and return an owner per item
// (-1 = unassigned) in out, which must have len(s.items). Only existing items are assigned.

func (s *sim) liveItems(g int) []int32 {
	if !s.groups[g].dirty {
		return s.groups[g].items // nothing removed: no copy (the caller must not modify it)
	}
	var out []int32
	for _, it := range s.groups[g].items {
		if x := &s.items[it]; x.exists && !x.deleted {
			out = append(out, it)
		}
	}
	return out
}

func fill(out []int32, v int32) {
	for i := range out {
		out[i] = v
	}
}

// assignRange: per topic, contiguous ranges; the first P mod N members get one extra.
func (s *sim) assignRange(ws []int32, out []int32) {
	fill(out, -1)
	n := len(ws)
	if n == 0 {
		return
	}
	for g := range s.groups {
		parts := s.liveItems(g)
		q, extra := len(parts)/n, len(parts)%n
		p := 0
		for i, m := range ws {
			c := q
			if i < extra {
				c++
			}
			for k := 0; k < c; k++ {
				out[parts[p]] = m
				p++
			}
		}
	}
}

// assignRoundRobin deals all partitions, topic by topic, over the members in order.
func (s *sim) assignRoundRobin(ws []int32, out []int32) {
	fill(out, -1)
	if len(ws) == 0 {
		return
	}
	k := 0
	for g := range s.groups {
		for _, it := range s.liveItems(g) {
			out[it] = ws[k%len(ws)]
			k++
		}
	}
}

// assignSticky is the array form of stickyLists: prev gives each item's previous owner id.
func (s *sim) assignSticky(ws []int32, prev []int32, out []int32) {
	fill(out, -1)
	n := len(ws)
	if n == 0 {
		return
	}
	// pos maps an id to its index in ws, +1 (0 = not a member this round).
	maxID := int32(0)
	for _, m := range ws {
		maxID = max(maxID, m)
	}
	pos := make([]int32, maxID+1)
	for i, m := range ws {
		pos[m] = int32(i) + 1
	}
	owned := make([][]int32, n)
	var orphans []int32
	for g := range s.groups {
		for _, it := range s.liveItems(g) {
			if p := prev[it]; p >= 0 && p <= maxID && pos[p] > 0 {
				owned[pos[p]-1] = append(owned[pos[p]-1], it)
			} else {
				orphans = append(orphans, it)
			}
		}
	}
	keep, add := s.stickyLists(owned, orphans, true)
	for i := range keep {
		for _, it := range keep[i] {
			out[it] = ws[i]
		}
		for _, it := range add[i] {
			out[it] = ws[i]
		}
	}
}

// stickyLists balances total counts (within one) and keeps as many current owners as possible:
// the extra partitions go to the members that own most, each member keeps up to its quota, and
// the rest is dealt to members under quota. Ties lean towards per-topic balance: a member keeps
// its partitions alternating between topics, and a free partition goes to the member with room
// holding the fewest of that topic. owned[i] are the live items member i owns (disjoint);
// orphans the live items nobody owns. It returns, per member, what it keeps and what it gains.
// Work is proportional to what moves, plus the lists of members that must give something up.
func (s *sim) stickyLists(owned [][]int32, orphans []int32, sorted bool) (keep, add [][]int32) {
	n := len(owned)
	// keep and add are scratch reused by the next call: callers keep the inner lists only.
	if cap(s.keepBuf) < n {
		s.keepBuf, s.addBuf = make([][]int32, n), make([][]int32, n)
	}
	keep, add = s.keepBuf[:n], s.addBuf[:n]
	clear(keep)
	clear(add)
	s.gave = s.gave[:0]
	if n == 0 {
		return
	}
	total := len(orphans)
	for _, o := range owned {
		total += len(o)
	}
	q, extra := total/n, total%n
	target := s.targetBuf[:0]
	for range n {
		target = append(target, q)
	}
	s.targetBuf = target
	if extra > 0 {
		s.giveExtra(owned, target, extra)
	}
	free := append(s.freeBuf[:0], orphans...) // scratch, like the list copies below
	defer func() { s.freeBuf = free[:0] }()
	for i, its := range owned {
		if len(its) <= target[i] {
			keep[i] = its
			continue
		}
		if !sorted {
			its = append(s.itsBuf[:0], its...)
			s.itsBuf = its
			s.sortItems(its)
		}
		if t := target[i]; len(s.groups) == 1 && (t == 0 || its[t-1] != its[t]) {
			// One group: keepAlternating would mark its[:t], and no item repeats across the
			// cut, so the loop below would keep exactly its[:t].
			if t > 0 {
				keep[i] = append(make([]int32, 0, t), its[:t]...)
			}
			for _, it := range its[t:] {
				free = append(free, it)
				s.gave = append(s.gave, it, int32(i))
			}
			continue
		}
		stamp := s.keepAlternating(its, target[i])
		if target[i] > 0 {
			keep[i] = make([]int32, 0, target[i]) // exactly target[i] are marked: filled to cap
		}
		for _, it := range its {
			if s.stamps[it] == stamp {
				keep[i] = append(keep[i], it)
			} else {
				free = append(free, it)
				s.gave = append(s.gave, it, int32(i))
			}
		}
	}
	if len(free) == 0 {
		return
	}
	s.sortItems(free)
	G := len(s.groups)
	if G > 1 && n*G > 4_000_000 {
		i := 0 // too many members × topics to track per topic: plain round-robin
		for _, it := range free {
			for len(keep[i%n])+len(add[i%n]) >= target[i%n] {
				i++
			}
			add[i%n] = append(add[i%n], it)
		}
		return
	}
	cnt := slices.Grow(s.cntBuf[:0], n*G)[:n*G] // member i, group g -> count at i*G+g
	clear(cnt)
	s.cntBuf = cnt
	for i := range keep {
		if G == 1 {
			cnt[i] = int32(len(keep[i]))
			continue
		}
		for _, it := range keep[i] {
			cnt[i*G+int(s.info[it].group)]++
		}
	}
	for lo := 0; lo < len(free); {
		g := int(s.info[free[lo]].group)
		hi := lo
		for hi < len(free) && int(s.info[free[hi]].group) == g {
			hi++
		}
		h := &roomHeap{idx: s.roomBuf[:0], cnt: cnt, g: g, G: G}
		for i := range n {
			if len(keep[i])+len(add[i]) < target[i] {
				h.idx = append(h.idx, i)
			}
		}
		h.init()
		for _, it := range free[lo:hi] {
			i := h.idx[0]
			add[i] = append(add[i], it)
			cnt[i*G+g]++
			if len(keep[i])+len(add[i]) >= target[i] {
				// Popped: the last member takes the top's place.
				last := len(h.idx) - 1
				h.idx[0] = h.idx[last]
				h.idx = h.idx[:last]
			}
			h.down(0) // its count grew, or another member took its place
		}
		s.roomBuf = h.idx[:0]
		lo = hi
	}
	return
}

// giveExtra adds one to the targets of the extra members owning most, ties in member order.
func (s *sim) giveExtra(owned [][]int32, target []int, extra int) {
	longest, shortest := 0, math.MaxInt
	for _, o := range owned {
		longest, shortest = max(longest, len(o)), min(shortest, len(o))
	}
	if span := longest - shortest; span <= 4*len(owned)+64 {
		// Counted by length: the longest lists below some length d all get one, and of
		// those of length d the first ones by index.
		cnt := slices.Grow(s.spanBuf[:0], span+1)[:span+1]
		clear(cnt)
		for _, o := range owned {
			cnt[longest-len(o)]++
		}
		d, acc := 0, 0
		for acc+int(cnt[d]) < extra { // extra < len(owned): some d ends it
			acc += int(cnt[d])
			d++
		}
		need := extra - acc
		for i, o := range owned {
			if k := longest - len(o); k < d {
				target[i]++
			} else if k == d && need > 0 {
				target[i]++
				need--
			}
		}
		s.spanBuf = cnt
		return
	}
	// Keys (longest first, then index) packed in a word are unique, so any sort orders
	// them so.
	keys := s.rankBuf[:0]
	for i, o := range owned {
		keys = append(keys, uint64(longest-len(o))<<32|uint64(i))
	}
	slices.Sort(keys)
	for _, k := range keys[:extra] {
		target[k&(1<<32-1)]++
	}
	s.rankBuf = keys
}

// keepAlternating marks up to k of its (sorted by group, part) with the returned stamp, taking
// one group at a time in turn.
func (s *sim) keepAlternating(its []int32, k int) uint32 {
	s.stamp++
	stamp := s.stamp
	if k >= len(its) {
		for _, it := range its {
			s.stamps[it] = stamp
		}
		return stamp
	}
	if len(s.groups) == 1 {
		for _, it := range its[:k] {
			s.stamps[it] = stamp
		}
		return stamp
	}
	var runs [][]int32
	for lo := 0; lo < len(its); {
		hi := lo
		for hi < len(its) && s.info[its[hi]].group == s.info[its[lo]].group {
			hi++
		}
		runs = append(runs, its[lo:hi])
		lo = hi
	}
	for depth, n := 0, 0; n < k; depth++ {
		for _, r := range runs {
			if depth < len(r) && n < k {
				s.stamps[r[depth]] = stamp
				n++
			}
		}
	}
	return stamp
}

// roomHeap orders members with room by how many partitions of group g they hold, then index:
// a binary min-heap of member indices, typed (container/heap's interface calls were most of
// the dealing). The keys are unique, so the order members come to the top in is the keys'.
type roomHeap struct {
	idx  []int
	cnt  []int32
	g, G int
}

// less orders members a and b.
func (h *roomHeap) less(a, b int) bool {
	x, y := h.cnt[a*h.G+h.g], h.cnt[b*h.G+h.g]
	if x != y {
		return x < y
	}
	return a < b
}

// init orders idx into a heap, as heap.Init does.
func (h *roomHeap) init() {
	for i := len(h.idx)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// down moves the member at position i down to its place, as container/heap's down does.
func (h *roomHeap) down(i int) {
	idx := h.idx
	for {
		j := 2*i + 1
		if j >= len(idx) {
			return
		}
		if j2 := j + 1; j2 < len(idx) && h.less(idx[j2], idx[j]) {
			j = j2
		}
		if !h.less(idx[j], idx[i]) {
			return
		}
		idx[i], idx[j] = idx[j], idx[i]
		i = j
	}
}

// assignConnectEager is Connect's V0 assignment: connectors round-robin over the sorted workers,
// then tasks continuing round-robin.
func (s *sim) assignConnectEager(ws []int32, out []int32) {
	fill(out, -1)
	if len(ws) == 0 {
		return
	}
	k := 0
	for _, conn := range []bool{true, false} {
		for g := range s.groups {
			for _, it := range s.liveItems(g) {
				if (s.info[it].part < 0) == conn {
					out[it] = ws[k%len(ws)]
					k++
				}
			}
		}
	}
}
