package rebalance

import "math"

// A batch is the items one startItems call gave a member. While an item follows its batch
// (s.bat[it] >= 0) the batch, not the item, holds its owner, label, state, since and revoked
// flag, and its pause start once the batch has left "starting" (psCommon). A stop-the-world
// round then moves a member's whole batch through revoking and unowned in O(1) rather than
// touching every item; anything else first detaches the item, which is always correct and only
// loses the shortcut.
type batch struct {
	owner, label int32
	last         int32  // the last owner of every item following: the batch's first owner
	n            int32  // items still following the batch
	gen          uint32 // bumped on reuse, so stale closures see a different batch
	state        uint8
	revoked      bool
	psCommon     bool // pauseStart applies to every item; otherwise each keeps its own
	sumOK        bool // sumPS and minPS cover exactly the items still following
	since        int64
	pauseStart   int64
	sumPS, minPS int64
}

// newBatch returns an empty batch; the caller attaches items as it moves them into state st.
func (s *sim) newBatch(owner int32, st uint8) int32 {
	var b int32
	if n := len(s.freeB); n > 0 {
		b, s.freeB = s.freeB[n-1], s.freeB[:n-1]
	} else {
		b = int32(len(s.batches))
		s.batches = append(s.batches, batch{})
	}
	B := &s.batches[b]
	*B = batch{owner: owner, last: owner, label: -1, gen: B.gen + 1, state: st, since: s.now, sumOK: true, minPS: s.now}
	return b
}

// detach makes the item's own fields current again.
func (s *sim) detach(it int32) {
	b := s.bat[it]
	if b < 0 {
		return
	}
	s.bat[it] = -1
	B := &s.batches[b]
	x := &s.items[it]
	x.owner, x.label, x.state, x.since, x.revoked, x.lastOwner = B.owner, B.label, B.state, B.since, B.revoked, B.last
	if B.psCommon {
		s.ps[it] = B.pauseStart
	} else {
		B.sumOK = false
	}
	B.n--
	if B.n == 0 {
		s.freeB = append(s.freeB, b)
	}
}

// ownerOf reads an item's owner without detaching it.
func (s *sim) ownerOf(it int32) int32 {
	if b := s.bat[it]; b >= 0 {
		return s.batches[b].owner
	}
	return s.items[it].owner
}

// whole reports whether its is exactly the items following one batch, and which.
func (s *sim) whole(its []int32) (int32, bool) {
	if len(its) == 0 {
		return -1, false
	}
	b := s.bat[its[0]]
	if b < 0 || s.batches[b].n != int32(len(its)) {
		return -1, false
	}
	s.stamp++
	for _, it := range its {
		if s.bat[it] != b || s.stamps[it] == s.stamp {
			return -1, false
		}
		s.stamps[it] = s.stamp
	}
	return b, true // len(its) distinct items follow b, which n items follow
}

// batchMoved records segments for a batch's items after an O(1) move (while recording).
func (s *sim) batchMoved(its []int32) {
	if s.segStop >= 0 {
		return
	}
	for _, it := range its {
		if s.segStop >= 0 {
			return
		}
		s.recordSeg(it)
	}
}

// batchIs reports whether batch b is still the one created (gen) with all n items following it,
// in state st since t0 on owner.
func (s *sim) batchIs(b int32, gen uint32, n int32, st uint8, t0 int64, owner int32) bool {
	B := &s.batches[b]
	return B.gen == gen && B.n == n && B.state == st && B.since == t0 && B.owner == owner
}

// startRun is startItems's loop over the run of its from i on that follows batch ob, which is
// unowned and not processing, while nothing is recorded: the items join batch nb (starting, on
// me) with none of the general loop's cases (no owner to take from, no pause beginning or
// ending). It returns where the run ends (the first item it leaves to the general loop) and
// what it adds to moved, wasted and nb's pause-start sum and minimum.
//
// It touches only bat and ps: the item's own owner, label, state, since, revoked and last
// owner are stale while it follows nb, and detach restores them all from nb.
func (s *sim) startRun(its []int32, i int, ob, nb, me int32) (j, moved, wasted int, sumPS, minPS int64) {
	bat, ps := s.bat, s.ps
	O := &s.batches[ob]
	minPS = math.MaxInt64
	if lo, n := its[i], len(its)-i; len(s.groups) == 1 && !s.deletions && int(lo)+n <= len(s.groups[0].items) &&
		&s.groups[0].items[lo] == &its[i] && its[len(its)-1] == lo+int32(n-1) {
		// its[i:] is part of the only group's list, which is 0, 1, 2, ... (items are added
		// to it in order; the last one checks it): items lo, lo+1, ..., so bat and ps are
		// read in runs.
		return s.startRange(lo, n, i, O, ob, nb, me)
	}
	// One tight loop per concern: these run for every item of every eager round.
	if s.deletions {
		items := s.items
		for j = i; j < len(its); j++ {
			if it := its[j]; bat[it] == ob && !items[it].deleted { // deleted: skipped, by the general loop
				bat[it] = nb
				continue
			}
			break
		}
	} else {
		for j = i; j < len(its); j++ {
			if it := its[j]; bat[it] == ob {
				bat[it] = nb // a repeated item breaks the run here, as it no longer follows ob
				continue
			}
			break
		}
	}
	k := j - i
	if k == 0 {
		return
	}
	if p := O.pauseStart; O.psCommon {
		for _, it := range its[i:j] {
			ps[it] = p
		}
		sumPS, minPS = int64(k)*p, p
	} else {
		for _, it := range its[i:j] {
			sumPS += ps[it]
			minPS = min(minPS, ps[it])
		}
		O.sumOK = false
	}
	moved, wasted = s.runDone(O, ob, k, me)
	return j, moved, wasted, sumPS, minPS
}

// startRange is startRun over items lo, lo+1, ..., lo+n-1 (its[i:]).
func (s *sim) startRange(lo int32, n, i int, O *batch, ob, nb, me int32) (j, moved, wasted int, sumPS, minPS int64) {
	bat := s.bat[lo : int(lo)+n]
	k := 0
	for k < len(bat) && bat[k] == ob {
		bat[k] = nb
		k++
	}
	if k == 0 {
		return i, 0, 0, 0, math.MaxInt64
	}
	ps := s.ps[lo : int(lo)+k]
	if p := O.pauseStart; O.psCommon {
		for x := range ps {
			ps[x] = p
		}
		sumPS, minPS = int64(k)*p, p
	} else {
		minPS = math.MaxInt64
		for _, v := range ps {
			sumPS += v
			minPS = min(minPS, v)
		}
		O.sumOK = false
	}
	moved, wasted = s.runDone(O, ob, k, me)
	return i + k, moved, wasted, sumPS, minPS
}

// runDone is what a run of k items leaving ob for me adds to moved and wasted, and ob's count.
func (s *sim) runDone(O *batch, ob int32, k int, me int32) (moved, wasted int) {
	// Every item following ob has ob's first owner as its last owner.
	if last := O.last; last >= 0 && last != me {
		moved = k
	} else if last == me && O.revoked {
		wasted = k
	}
	if O.n -= int32(k); O.n == 0 {
		s.freeB = append(s.freeB, ob)
	}
	return moved, wasted
}
