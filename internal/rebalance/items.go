package rebalance

import (
	"slices"
	"strconv"
	"strings"
)

// Item states, compact.
const (
	stUnowned uint8 = iota
	stStarting
	stProcessing
	stRevoking
)

var stateNames = [...]string{StateUnowned, StateStarting, StateProcessing, StateRevoking}

type item struct {
	owner     int32 // member holding a claim on it, -1 for none
	label     int32 // member shown on an unowned segment (assigned but down), -1 for none
	lastOwner int32
	state     uint8
	exists    bool
	deleted   bool  // a Connect task removed by set_tasks, still to be stopped
	revoked   bool  // the last stop was a revocation (for wasted moves)
	since     int64 // its pause start (when not processing) is in sim.ps, apart, for dense scans
}

// itemInfo holds what rounds rarely touch, apart from item so hot loops stream less memory.
type itemInfo struct {
	group      int32 // topic or connector index
	part       int32 // partition or task number; -1 for a connector itself
	born, died int64
	lived      int64 // existence before the last revival (tasks can be removed and re-added)
}

type seg struct {
	from  int64
	owner int32
	state uint8
}

type group struct {
	dirty bool // some item was removed (Connect tasks)
	name  string
	items []int32 // in partition (task) order; for Connect the connector item first
}

func (s *sim) addItem(g int, part int) int32 {
	name := s.groups[g].name
	if part >= 0 {
		name += "-" + strconv.Itoa(part)
	}
	return s.addNamed(g, part, name, nil)
}

// addNamed adds an item with this name; seg, when not nil, is an empty list (capacity one)
// for its first timeline segment.
func (s *sim) addNamed(g, part int, name string, seg []seg) int32 {
	idx := int32(len(s.items))
	s.items = append(s.items, item{owner: -1, label: -1, exists: true, since: s.now, lastOwner: -1})
	s.ps = append(s.ps, s.now)
	s.info = append(s.info, itemInfo{group: int32(g), part: int32(part), born: s.now, died: -1})
	s.names = append(s.names, name)
	s.stamps = append(s.stamps, 0)
	s.bat = append(s.bat, -1)
	s.segs = append(s.segs, seg)
	s.recordSeg(idx)
	s.groups[g].items = append(s.groups[g].items, idx)
	s.world++
	s.notProcessing++
	s.liveCount++
	return idx
}

// addParts adds partitions (tasks) from to n-1 to group g. A big topic is most of a run's set-up,
// so the per-item arrays grow once, the names are cut from one string and the first segments
// come from one array.
func (s *sim) addParts(g, from, n int) {
	k := n - from
	if k <= 0 {
		return
	}
	s.items, s.ps, s.info = slices.Grow(s.items, k), slices.Grow(s.ps, k), slices.Grow(s.info, k)
	s.names, s.stamps, s.bat = slices.Grow(s.names, k), slices.Grow(s.stamps, k), slices.Grow(s.bat, k)
	s.segs, s.groups[g].items = slices.Grow(s.segs, k), slices.Grow(s.groups[g].items, k)
	prefix := s.groups[g].name + "-"
	var b strings.Builder
	ends := make([]int, k)
	for p := from; p < n; p++ {
		b.WriteString(prefix)
		b.WriteString(strconv.Itoa(p))
		ends[p-from] = b.Len()
	}
	all, start := b.String(), 0
	segs := make([]seg, k)
	for i, end := range ends {
		s.addNamed(g, from+i, all[start:end], segs[i:i:i+1])
		start = end
	}
}

// growGroup makes the group have n partitions (tasks), creating or reviving items.
func (s *sim) growGroup(g, n int) {
	base := 0
	if s.kind == kindConnect {
		base = 1
	}
	cur := len(s.groups[g].items) - base
	for p := 0; p < cur && p < n; p++ {
		it := s.groups[g].items[base+p]
		if !s.items[it].exists || s.items[it].deleted {
			s.revive(it)
		}
	}
	s.addParts(g, cur, n)
	for p := n; p < cur; p++ {
		it := s.groups[g].items[base+p]
		if s.items[it].exists && !s.items[it].deleted {
			s.items[it].deleted = true
			s.deletions = true
			s.world++
			s.groups[g].dirty = true
			s.liveCount--
			if s.ownerOf(it) < 0 {
				s.kill(it)
			}
		}
	}
}

func (s *sim) revive(it int32) {
	s.detach(it)
	x := &s.items[it]
	if x.exists {
		if x.deleted {
			s.liveCount++
			s.world++
		}
		x.deleted = false
		return
	}
	s.liveCount++
	s.world++
	x.exists, x.deleted = true, false
	s.info[it].died, s.info[it].born = -1, s.now
	s.ps[it], x.since = s.now, s.now
	x.state, x.owner, x.label = stUnowned, -1, -1
	s.notProcessing++
	s.recordSeg(it)
}

// kill ends a deleted item's existence.
func (s *sim) kill(it int32) {
	s.detach(it)
	x := &s.items[it]
	if !x.exists {
		return
	}
	if x.state != stProcessing {
		s.addPause(s.now - s.ps[it])
		s.notProcessing--
	}
	if x.owner >= 0 {
		s.release(s.members[x.owner], it)
		s.members[x.owner].ver++
	}
	s.world++
	x.exists, x.owner = false, -1
	in := &s.info[it]
	in.died = s.now
	in.lived += s.now - in.born
	s.appendSeg(it, seg{from: s.now, state: 255})
}

func (s *sim) addPause(d int64) {
	s.downtime += d
	if d > s.maxPause {
		s.maxPause = d
	}
}

// setState moves an item to a state and records a timeline segment.
func (s *sim) setState(it int32, st uint8, owner, label int32) {
	x := &s.items[it]
	if !x.exists {
		return
	}
	s.detach(it)
	if x.owner != owner {
		if x.owner >= 0 {
			s.release(s.members[x.owner], it)
			s.members[x.owner].ver++
		}
		if owner >= 0 {
			s.members[owner].ver++
		}
	}
	s.move(it, x, st, owner, label)
}

// move is setState for an existing item without the owners' bookkeeping, which hot loops over
// one member's items do once per batch.
func (s *sim) move(it int32, x *item, st uint8, owner, label int32) {
	s.detach(it)
	if x.state == stProcessing && st != stProcessing {
		s.ps[it] = s.now
		s.notProcessing++
	} else if x.state != stProcessing && st == stProcessing {
		s.addPause(s.now - s.ps[it])
		s.notProcessing--
	}
	x.state, x.owner, x.label, x.since = st, owner, label, s.now
	if s.segStop < 0 {
		s.recordSeg(it)
	}
	if s.notProcessing == 0 {
		s.checkStable()
	}
}

// startItems gives items to m: starting for start_ms, then processing.
func (s *sim) startItems(m *member, its []int32) {
	if len(its) == 0 || !m.up || m.stopping {
		return
	}
	s.steps += int64(len(its))
	t0, inc := s.now, m.inc
	st := stStarting
	if m.start == 0 {
		st = stProcessing
	}
	started := its[:0:0]
	gained := false
	// A member holding nothing (every eager round) takes started as its held list afterwards,
	// so when every item starts, held shares the caller's list instead of copying it.
	fresh := len(m.held) == 0
	if !fresh {
		m.held = slices.Grow(m.held, len(its))
	}
	nb := s.newBatch(m.idx, st)
	B := &s.batches[nb]
	// The loop runs for every item of every round, so what it accumulates (the new batch's
	// counters, notProcessing, moved, wasted) lives in locals and is written back before
	// anything that reads it; items, bat and batches are not reallocated inside it.
	items, bat, batches := s.items, s.bat, s.batches
	now, me := s.now, m.idx
	bn, sumPS, minPS := B.n, B.sumPS, B.minPS
	np, moved, wasted := s.notProcessing, s.moved, s.wasted
	runs := st == stStarting && s.segStop >= 0 // startRun's conditions that hold for the whole call
	for i := 0; i < len(its); i++ {
		it := its[i]
		if ob := bat[it]; runs && ob >= 0 && batches[ob].owner < 0 && batches[ob].state != stProcessing {
			if j, rm, rw, rsum, rmin := s.startRun(its, i, ob, nb, me); j > i {
				gained = true
				bn += int32(j - i)
				sumPS, minPS = sumPS+rsum, min(minPS, rmin)
				moved, wasted = moved+rm, wasted+rw
				if !fresh {
					m.held = append(m.held, its[i:j]...)
				}
				if len(started) == i {
					started = its[:j:j]
				} else {
					started = append(started, its[i:j]...)
				}
				i = j - 1
				continue
			}
		}
		x := &items[it]
		if !x.exists || x.deleted {
			continue
		}
		// The item's current owner, state and revoked flag, from its batch if it follows one
		// (leaving it: this is detach, minus fields about to be overwritten).
		owner, state, revoked, last := x.owner, x.state, x.revoked, x.lastOwner
		if ob := bat[it]; ob >= 0 {
			O := &batches[ob]
			if O.owner == me {
				continue
			}
			owner, state, revoked, last = O.owner, O.state, O.revoked, O.last
			if O.psCommon {
				s.ps[it] = O.pauseStart
			} else {
				O.sumOK = false
			}
			if O.n--; O.n == 0 {
				s.freeB = append(s.freeB, ob) // never nb: nothing follows it yet but this loop's items
			}
		} else if owner == me {
			continue
		}
		if owner >= 0 {
			s.viol++
			s.invariant("at %d ms %s is given to %s while %s still owns it", now, s.names[it], m.name, s.members[owner].name)
			s.release(s.members[owner], it)
			s.members[owner].ver++
		}
		gained = true
		if last >= 0 && last != me {
			moved++
		} else if last == me && revoked {
			wasted++
		}
		x.lastOwner, x.revoked = me, false
		// move, inlined: the hot path of every round.
		if state == stProcessing && st != stProcessing {
			s.ps[it] = now
			np++
		} else if state != stProcessing && st == stProcessing {
			s.addPause(now - s.ps[it])
			np--
		}
		x.state, x.owner, x.label, x.since = st, me, -1, now
		if s.segStop < 0 {
			bat[it] = -1 // recordSeg reads the item's own fields
			s.recordSeg(it)
		}
		if np == 0 {
			s.notProcessing = np
			s.checkStable()
		}
		// Follow the new batch (already in the state just set).
		bat[it] = nb
		bn++
		sumPS += s.ps[it]
		minPS = min(minPS, s.ps[it])
		if !fresh {
			m.held = append(m.held, it)
		}
		if len(started) == i {
			started = its[: i+1 : i+1] // all started so far: share the caller's slice (capped, so appends copy)
		} else {
			started = append(started, it)
		}
	}
	B.n, B.sumPS, B.minPS = bn, sumPS, minPS
	s.notProcessing, s.moved, s.wasted = np, moved, wasted
	if gained {
		m.ver++
	}
	if fresh && len(started) > 0 {
		// started is capped, so later appends to held copy; heldShared keeps heldList from
		// compacting in place a list the caller and the start timer below still read.
		m.held, m.heldShared = started, true
		// Exactly held's items follow nb now, as after a compaction: revokeItems's O(1) check.
		m.heldBatch, m.heldGen = nb, B.gen
	}
	b := nb
	if B.n == 0 {
		s.freeB = append(s.freeB, nb)
	}
	if st == stStarting && len(started) > 0 {
		x := s.wait(itemWait{items: started, t0: t0, inc: inc, m: m.idx, b: b, gen: s.batches[b].gen})
		s.afterAct(m.start, typed(actStarted, m.idx, x, 0))
	}
}

// started ends startItems's start_ms wait: the items m still owns, as it started them, begin
// processing.
func (s *sim) started(w itemWait) {
	m, started, b, t0 := s.members[w.m], w.items, w.b, w.t0
	if m.inc != w.inc {
		return
	}
	if B := &s.batches[b]; s.batchIs(b, w.gen, int32(len(started)), stStarting, t0, m.idx) && B.sumOK {
		// The whole batch starts processing: its pauses end together.
		n := int64(B.n)
		s.downtime += n*s.now - B.sumPS
		s.maxPause = max(s.maxPause, s.now-B.minPS)
		s.notProcessing -= int(n)
		B.state, B.since = stProcessing, s.now
		s.batchMoved(started)
		if s.notProcessing == 0 {
			s.checkStable()
		}
		return
	}
	for _, it := range started {
		s.detach(it)
		x := &s.items[it]
		if x.owner == m.idx && x.state == stStarting && x.since == t0 && x.exists {
			s.move(it, x, stProcessing, m.idx, -1)
		}
	}
}

// revokeItems stops items on m (commit + callback, revoke_ms), releases them, and then runs
// then (if set: a protocol's typed act, or a closure's from s.then) unless m has restarted.
func (s *sim) revokeItems(m *member, its []int32, byRebalance bool, then act) {
	s.steps += int64(len(its))
	t0, inc := s.now, m.inc
	stopping := its[:0:0]
	b, whole := int32(-1), false
	if hb := m.heldBatch; hb >= 0 && len(its) > 0 && len(its) == len(m.held) && &its[0] == &m.held[0] &&
		s.batches[hb].gen == m.heldGen && s.batches[hb].n == int32(len(its)) {
		// its is held as compacted, when exactly its items followed hb; none has left since
		// (n is unchanged) and no item ever joins an existing batch.
		b, whole = hb, true
	} else {
		b, whole = s.whole(its)
	}
	var gen uint32
	if whole && s.batches[b].owner == m.idx && s.batches[b].state == stProcessing {
		B := &s.batches[b]
		// The member stops a whole processing batch: every item pauses now.
		s.notProcessing += int(B.n)
		B.state, B.since, B.label = stRevoking, s.now, -1
		B.psCommon, B.pauseStart = true, s.now
		gen = B.gen
		stopping = its[:len(its):len(its)]
		s.batchMoved(stopping)
	} else {
		b = -1
	}
	for i, it := range its {
		if b >= 0 {
			break
		}
		s.detach(it)
		x := &s.items[it]
		if x.owner == m.idx && x.state != stRevoking {
			if x.exists {
				s.move(it, x, stRevoking, m.idx, -1)
			}
			if len(stopping) == i {
				stopping = its[: i+1 : i+1] // share the caller's slice while every item qualifies (capped)
			} else {
				stopping = append(stopping, it)
			}
		}
	}
	m.heldShared = true // its may be m.held: never rewrite it in place now
	w := itemWait{items: stopping, then: then, t0: t0, inc: inc, m: m.idx, b: b, gen: gen, byRebalance: byRebalance}
	if m.revoke == 0 {
		s.revoked(w)
		return
	}
	s.afterAct(m.revoke, typed(actRevoked, m.idx, s.wait(w), 0))
}

// revoked ends revokeItems's revoke_ms wait: the items m still has stopping are released.
func (s *sim) revoked(w itemWait) {
	m, stopping, b, t0 := s.members[w.m], w.items, w.b, w.t0
	if m.inc != w.inc {
		if w.then.isClosure() {
			s.q.take(w.then) // its slot, which nothing else frees
		}
		return
	}
	released, rest := false, stopping
	if b >= 0 && s.batchIs(b, w.gen, int32(len(stopping)), stRevoking, t0, m.idx) && s.kind == kindConsumer {
		B := &s.batches[b]
		// The whole batch is released (consumers never delete partitions).
		B.revoked = w.byRebalance
		B.state, B.owner, B.label, B.since = stUnowned, -1, -1, s.now
		s.batchMoved(stopping)
		s.releaseAll(m, stopping)
		released = true
		rest = nil
	}
	for _, it := range rest {
		s.detach(it)
		x := &s.items[it]
		if x.owner == m.idx && x.state == stRevoking && x.since == t0 {
			x.revoked = w.byRebalance
			if x.exists {
				s.move(it, x, stUnowned, -1, -1)
				s.release(m, it)
				released = true
			}
			if x.deleted {
				s.kill(it)
			}
		}
	}
	if released {
		m.heldDirty = true
		m.ver++
	}
	switch {
	case w.then.isClosure():
		s.q.take(w.then)()
	case w.then != (act{}):
		s.group.fire(w.then)
	}
}

// dropItems loses m's items at once (crash, fenced). label keeps them shown as m's.
func (s *sim) dropItems(m *member, label int32) {
	for _, it := range s.heldList(m) {
		s.detach(it)
		if x := &s.items[it]; x.state == stProcessing && x.owner == m.idx && x.exists {
			s.reprocMS += s.now - max(x.since, s.lastCommit(m))
		}
		s.items[it].revoked = false
		s.setState(it, stUnowned, -1, label)
		if s.items[it].deleted {
			s.kill(it)
		}
	}
	m.held, m.heldShared = nil, false
	m.gone, m.goneLost = m.gone[:0], false
	m.ver++
}

// unlabel clears the "assigned to a down member" label once the group forgets that member.
func (s *sim) unlabel(m *member, its []int32) {
	for _, it := range its {
		s.detach(it)
		x := &s.items[it]
		if x.exists && x.state == stUnowned && x.label == m.idx {
			s.setState(it, stUnowned, -1, -1)
		}
	}
}

// lastCommit is when m last committed its offsets by auto-commit (commits on revoke and close
// leave nothing to re-process, so only losses call this); with auto-commit off, never.
func (s *sim) lastCommit(m *member) int64 {
	iv := s.cfg.autoCommit
	if iv <= 0 || s.now < m.commitBase {
		return -1 << 62
	}
	return m.commitBase + (s.now-m.commitBase)/iv*iv
}
