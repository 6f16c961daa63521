package rebalance

import (
	"math"
	"sort"
	"strings"
)

// KIP-848 (group.protocol=consumer): the broker computes a target assignment whenever the group
// epoch bumps; each member reconciles on its own heartbeats, revoking first; a partition is given
// to its new owner only once the old owner has released it. There is no group-wide barrier.

type kentry struct {
	id      int32
	m       *member
	alive   bool
	revive  int
	removed bool
	epoch   int
	hbAt    int64
	revokes bool // a revocation is in flight
	// The state of the last heartbeat that found nothing to do: while the target list, the
	// member's holdings and the set of items are unchanged, the next one finds nothing either.
	clean                bool
	cleanVer, cleanWorld uint64
	cleanList            []int32
}

func sameList(a, b []int32) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

type kround struct {
	gen            int
	triggers       []string
	start          int64
	revoked, added map[int32][]int32
}

type kip848 struct {
	s        *sim
	entries  []*kentry
	epoch    int
	target   []int32   // item -> entry id (-1)
	targetOf [][]int32 // entry id -> its target items (nil: none); a slice, as heartbeats read it
	cur      *kround
	// Gate for check: members reconciled this epoch, members expected, members gone since.
	done, expect, awayN int
	nextID              int32
	byID                []*kentry // every entry ever made, by id: what a heartbeat act names
	assignor            assignor  // uniform or range
	removedSince        bool      // some entry was removed since live last compacted entries
}

func newKIP848(s *sim) *kip848 {
	k := &kip848{s: s, assignor: assignorNames[s.sc.Assignor]}
	k.target = make([]int32, len(s.items))
	fill(k.target, -1)
	for _, n := range s.sc.Members {
		k.newEntry(s.byName[n])
	}
	if len(k.entries) == 0 {
		return k
	}
	k.epoch = 1
	if s.sc.InitialAssignment != nil {
		idx := map[string]int32{}
		for i, n := range s.names {
			idx[n] = int32(i)
		}
		for mn, its := range s.sc.InitialAssignment {
			for _, n := range its {
				k.target[idx[n]] = s.byName[mn].k.id
			}
		}
		k.index()
	} else {
		k.compute()
	}
	for it, id := range k.target {
		if id < 0 {
			continue
		}
		m := k.entries[id].m
		x := &s.items[it]
		x.owner, x.lastOwner, x.state = m.idx, m.idx, stProcessing
		s.notProcessing--
		s.segs[it] = s.segs[it][:0]
		s.nsegs--
		s.recordSeg(int32(it))
		m.held = append(m.held, int32(it))
	}
	for _, e := range k.entries {
		e.epoch = 1
	}
	return k
}

func (k *kip848) newEntry(m *member) *kentry {
	e := &kentry{id: k.nextID, m: m, alive: true, hbAt: -1}
	k.nextID++
	k.entries = append(k.entries, e)
	k.byID = append(k.byID, e)
	m.k = e
	return e
}

// live is the entries not removed, compacting k.entries only after a removal.
func (k *kip848) live() []*kentry {
	if !k.removedSince {
		return k.entries
	}
	k.removedSince = false
	out := k.entries[:0]
	for _, e := range k.entries {
		if !e.removed {
			out = append(out, e)
		}
	}
	clear(k.entries[len(out):])
	k.entries = out
	return out
}

// compute runs the server-side assignor over the members still in the group. Uniform works on
// the current target lists, so a bump costs about what moves; range recomputes from scratch.
func (k *kip848) compute() {
	s := k.s
	for len(k.target) < len(s.items) {
		k.target = append(k.target, -1)
	}
	live := k.live()
	sort.SliceStable(live, func(i, j int) bool { return s.rank(live[i].m) < s.rank(live[j].m) })
	if k.assignor == asRange {
		ids := make([]int32, len(live))
		for i, e := range live {
			ids[i] = e.id
		}
		out := make([]int32, len(s.items))
		s.assignRange(ids, out)
		k.target = out
		k.index()
		return
	}
	owned := make([][]int32, len(live))
	keys := make([]int32, len(live))
	sum := 0
	for i, e := range live {
		owned[i], keys[i] = k.targetsOf(e.id), e.id
		sum += len(owned[i])
	}
	orphans := s.orphans(keys, owned, sum)
	keep, add := s.stickyLists(owned, orphans, false)
	clear(k.targetOf)
	for _, it := range orphans {
		k.target[it] = -1
	}
	for i, e := range live {
		l := keep[i]
		if len(add[i]) > 0 {
			l = append(append(make([]int32, 0, len(keep[i])+len(add[i])), keep[i]...), add[i]...)
			for _, it := range add[i] {
				k.target[it] = e.id
			}
		}
		if len(l) > 0 {
			k.setTargets(e.id, l)
		}
	}
}

// targetsOf is entry id's target items (nil: none).
func (k *kip848) targetsOf(id int32) []int32 {
	if int(id) < len(k.targetOf) {
		return k.targetOf[id]
	}
	return nil
}

func (k *kip848) setTargets(id int32, l []int32) {
	for int(id) >= len(k.targetOf) {
		k.targetOf = append(k.targetOf, nil)
	}
	k.targetOf[id] = l
}

func (k *kip848) index() {
	clear(k.targetOf)
	for it, id := range k.target {
		if id >= 0 {
			k.setTargets(id, append(k.targetsOf(id), int32(it)))
		}
	}
}

func (k *kip848) settled() bool {
	return k.cur == nil
}

// bump advances the group epoch and computes a new target; members learn on their next heartbeat.
func (k *kip848) bump(why string, except *kentry) {
	s := k.s
	if k.cur != nil {
		k.closeRound()
	}
	k.epoch++
	k.compute()
	k.cur = &kround{gen: k.epoch, triggers: []string{why}, start: s.now, revoked: map[int32][]int32{}, added: map[int32][]int32{}}
	k.done, k.expect, k.awayN = 0, 0, 0
	for _, e := range k.live() {
		if e.alive && e.m.k == e {
			k.expect++
			if e != except {
				k.scheduleHB(e, s.nextTick(e.m, s.now+1))
			}
		}
	}
	k.check()
}

// actHeartbeat: entry m's heartbeat response, scheduled for time a (rev: b), arrives. It is a
// typed act rather than a closure because every member sends one every heartbeat_ms: they
// were two thirds of a big run's allocations.
const actHeartbeat actKind = 1

func (k *kip848) fire(a act) {
	if a.kind() == actHeartbeat {
		k.heartbeatDue(k.byID[a.m], int64(a.a), int(a.b))
	}
}

// heartbeatDue runs e's heartbeat scheduled for at, unless a later schedule replaced it or the
// member restarted or left meanwhile.
func (k *kip848) heartbeatDue(e *kentry, at int64, rev int) {
	if e.hbAt != at || e.revive != rev || e.removed || !e.alive {
		return
	}
	e.hbAt = -1
	k.heartbeat(e)
}

// hbInHeap, set only by a test, sends every heartbeat through the heap (see scheduleHB).
var hbInHeap bool

func (k *kip848) scheduleHB(e *kentry, at int64) {
	if e.hbAt >= 0 && e.hbAt <= at {
		return
	}
	e.hbAt = at
	rev := e.revive
	s := k.s
	if at > math.MaxInt32 || rev > math.MaxInt32 { // past any duration_ms allowed: never in practice
		s.at(at, func() { k.heartbeatDue(e, at, rev) })
		return
	}
	a := typed(actHeartbeat, e.id, int32(at), int32(rev))
	if at == s.now+s.cfg.hb && !hbInHeap {
		// The next tick of a member heartbeating now (half of them): the agenda's lane for
		// that delay pops it in the same (time, sequence) order as the heap, at less cost.
		s.afterAct(s.cfg.hb, a)
		return
	}
	s.atAct(at, a)
}

// heartbeat is the moment a heartbeat response reaches the member: it revokes what it must give
// up, starts what has been released to it, and asks again on its next heartbeat if not done.
func (k *kip848) heartbeat(e *kentry) {
	s := k.s
	m := e.m
	if m.k != e || !m.up {
		return
	}
	if m.pollBusyUntil > s.now {
		// Callbacks run inside poll(): a stuck poll loop delays reconciliation.
		k.scheduleHB(e, m.pollBusyUntil)
		return
	}
	if m.pollAt > s.now {
		k.scheduleHB(e, m.pollAt) // its callbacks wait for the poll already drawn
		return
	}
	if e.clean && !e.revokes && e.cleanVer == m.ver && e.cleanWorld == s.world && sameList(e.cleanList, k.targetsOf(e.id)) {
		if e.epoch != k.epoch {
			k.done++
		}
		e.epoch = k.epoch
		k.check()
		return
	}
	e.clean = false
	done := true
	var revoke []int32
	for _, it := range s.heldList(m) {
		if k.target[it] != e.id {
			revoke = append(revoke, it)
		}
	}
	if k.callbacksWait(e, len(revoke) > 0 && !e.revokes) {
		return
	}
	if len(revoke) > 0 && !e.revokes {
		e.revokes = true
		if k.cur != nil {
			k.cur.revoked[m.idx] = append(k.cur.revoked[m.idx], revoke...)
		}
		inc := m.inc
		s.revokeItems(m, revoke, true, s.then(func() {
			e.revokes = false
			if m.inc == inc {
				// The member acknowledges the revocation with a heartbeat at once.
				s.after(s.cfg.rpc, func() { k.heartbeat(e) })
			}
		}))
	}
	if len(revoke) > 0 || e.revokes {
		done = false
	}
	var add []int32
	for _, it := range k.targetsOf(e.id) {
		x := &s.items[it]
		switch {
		case !x.exists || x.deleted:
		case s.ownerOf(it) == m.idx:
		case s.ownerOf(it) < 0:
			add = append(add, it)
		default:
			done = false // still held by its previous owner
		}
	}
	if len(add) > 0 {
		if k.cur != nil {
			k.cur.added[m.idx] = append(k.cur.added[m.idx], add...)
		}
		s.startItems(m, add)
	}
	if done {
		if e.epoch != k.epoch {
			k.done++
		}
		e.epoch = k.epoch
		if len(revoke) == 0 && len(add) == 0 && !e.revokes {
			e.clean, e.cleanVer, e.cleanWorld, e.cleanList = true, m.ver, s.world, k.targetsOf(e.id)
		}
	} else {
		k.scheduleHB(e, s.nextTick(m, s.now+1))
	}
	k.check()
}

func (k *kip848) check() {
	if k.cur == nil || k.done < k.expect-k.awayN {
		return
	}
	for _, e := range k.live() {
		if e.alive && e.m.k == e && (e.epoch != k.epoch || e.revokes) {
			return
		}
	}
	k.closeRound()
	k.s.checkStable()
}

func (k *kip848) closeRound() {
	s := k.s
	r := k.cur
	k.cur = nil
	var assign map[int32][]int32 // nil: too big to record
	if s.roundItems+s.liveCount <= maxRoundItems {
		assign = map[int32][]int32{}
		for _, e := range k.live() {
			assign[e.m.idx] = append(assign[e.m.idx], k.targetsOf(e.id)...)
		}
	}
	s.round(Round{Generation: r.gen, Trigger: strings.Join(r.triggers, "; "), StartMS: r.start, EndMS: s.now,
		Protocol: "consumer", Assignor: assignorName(k.assignor)}, assign, r.revoked, r.added, 0)
	k.checkBalance()
}

func (k *kip848) checkBalance() {
	s := k.s
	live := k.live()
	if len(live) == 0 {
		return
	}
	lo, hi := -1, 0
	for _, e := range live {
		n := len(k.targetsOf(e.id))
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	if k.assignor != asRange && hi-lo > 1 {
		s.invariant("epoch %d: counts range from %d to %d (must differ by at most one)", k.epoch, lo, hi)
	}
	n := 0
	for _, e := range live {
		n += len(k.targetsOf(e.id))
	}
	for it := range k.target { // items created since this epoch are not in its target yet
		if n == s.liveCount {
			break
		}
		if x := &s.items[it]; x.exists && !x.deleted && k.target[it] < 0 {
			s.invariant("epoch %d: %s is in no member's target", k.epoch, s.names[it])
			break
		}
	}
}

func (k *kip848) find(name string) *kentry {
	for _, e := range k.entries {
		if !e.removed && e.m.name == name {
			return e
		}
	}
	return nil
}

func (k *kip848) memberStarted(m *member) {
	inc := m.inc
	k.s.after(k.s.cfg.rpc, func() {
		if m.inc == inc && m.up {
			k.join(m, m.name+" joins")
		}
	})
}

// join is a heartbeat with epoch 0 (or a static member returning with its instance id).
func (k *kip848) join(m *member, why string) {
	s := k.s
	m.phase = s.now % s.cfg.hb
	if s.sc.StaticMembership {
		if old := k.find(m.name); old != nil {
			if !old.alive {
				// Back within the session timeout: same target, no epoch bump.
				old.alive = true
				old.revive++
				old.hbAt = -1
				old.epoch = 0
				m.k = old
				k.heartbeat(old)
				return
			}
			old.removed = true // fenced by the new instance
			k.removedSince = true
		}
	}
	if k.cur != nil {
		k.closeRound() // superseded: recorded before the membership changes
	}
	e := k.newEntry(m)
	k.bump(why, e)
	k.heartbeat(e)
}

func (k *kip848) remove(e *kentry, why string) {
	if e.removed {
		return
	}
	if k.cur != nil {
		k.closeRound()
	}
	e.removed = true
	k.removedSince = true
	if e.m.k == e {
		e.m.k = nil
		k.s.dropItems(e.m, -1)
	}
	k.s.unlabel(e.m, k.targetsOf(e.id))
	k.bump(why, nil)
}

// away stops an entry's heartbeats; it is removed after the session timeout unless revived.
func (k *kip848) away(e *kentry) {
	s := k.s
	e.alive = false
	e.revive++
	k.awayN++
	rev := e.revive
	s.at(s.lastTick(e.m, s.now)+s.cfg.rpc+s.cfg.session, func() {
		if !e.removed && !e.alive && e.revive == rev {
			k.remove(e, e.m.name+"'s session times out")
		}
	})
	k.check()
}

func (k *kip848) memberStopping(m *member, down int64) {
	s := k.s
	e := m.k
	inc := m.inc
	s.revokeItems(m, s.heldList(m), false, s.then(func() {
		if m.inc != inc {
			return
		}
		s.dropItems(m, -1) // anything that arrived while shutting down is never started
		m.up, m.stopping = false, false
		m.inc++
		m.k = nil
		if e != nil && !e.removed {
			if s.sc.StaticMembership {
				k.away(e) // epoch -2: a temporary leave
			} else {
				s.after(s.cfg.rpc, func() { k.remove(e, m.name+" leaves (epoch -1)") })
			}
		}
		s.restartAfter(m, down)
	}))
}

func (k *kip848) memberCrashed(m *member) {
	if e := m.k; e != nil && !e.removed {
		m.k = nil
		k.away(e)
	}
}

func (k *kip848) pollTimeout(m *member) {
	e := m.k
	if e == nil || e.removed {
		return
	}
	m.k = nil
	if k.s.sc.StaticMembership {
		k.away(e)
		return
	}
	k.s.after(k.s.cfg.rpc, func() { k.remove(e, m.name+" exceeds max.poll.interval.ms and leaves") })
}

func (k *kip848) pollReturned(m *member) {
	inc := m.inc
	k.s.after(k.s.cfg.rpc, func() {
		if m.inc == inc && m.up && m.k == nil {
			k.join(m, m.name+" rejoins after its slow poll")
		}
	})
}

func (k *kip848) configChanged(why string) {
	if len(k.live()) > 0 {
		k.bump(why, nil)
	}
}

// callbacksWait: the heartbeat thread learns the target, but the revoke and assign callbacks
// run in the application thread's poll(). A member with work to do (revoking, or partitions
// released to it) and a batch in hand reconciles at its next poll; true when that is later.
func (k *kip848) callbacksWait(e *kentry, revoking bool) bool {
	s := k.s
	m := e.m
	if !revoking {
		free := false
		for _, it := range k.targetsOf(e.id) {
			if x := &s.items[it]; x.exists && !x.deleted && s.ownerOf(it) < 0 {
				free = true
				break
			}
		}
		if !free {
			return false
		}
	}
	if at := s.pollAt(m); at > s.now {
		k.scheduleHB(e, at)
		k.check()
		return true
	}
	return false
}
