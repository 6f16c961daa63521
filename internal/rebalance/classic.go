package rebalance

import (
	"sort"
	"strings"
)

// The classic group protocol: a coordinator with a join phase and a sync phase. Consumers run it
// eager or cooperative (KIP-429); Kafka Connect runs it eager (V0) or incremental (KIP-415).

type gstate int

const (
	gEmpty gstate = iota
	gStable
	gPreparing
	gCompleting
)

// entry is a member id the coordinator knows. A dynamic member that crashes leaves its entry
// behind (a ghost) until the session times out, while the restarted process joins afresh.
type entry struct {
	id       int32 // assignments refer to entries, since a name can have a ghost and a live entry
	m        *member
	alive    bool // the process behind it still heartbeats
	revive   int
	joined   bool
	owned    []int32 // reported in JoinGroup (cooperative)
	assigned []int32 // from the last SyncGroup
	removed  bool
	next     []int32 // scratch while computing an assignment
}

type pending struct {
	triggers []string
	start    int64
	revoked  map[int32][]int32
}

type classic struct {
	s         *sim
	state     gstate
	entries   []*entry
	all       []*entry // every entry ever, by id
	nEntries  int      // live entries
	nJoined   int      // live entries that joined the current round
	gen       int
	round     int
	delaying  bool
	newJoiner bool
	deferred  []func()
	cur       *pending
	assign    []int32 // the coordinator's view: item -> member (-1)
	followups int     // revocations whose rejoin is still to come
	buf       []int32
	prevBuf   []int32

	// Connect incremental (KIP-415) leader state.
	prev            []int32
	scheduled       int64
	candidates      map[int32]bool
	prevRevoked     bool
	nSucc           int
	revokeAllowedAt int64
	eager           bool
	held            bool // balancing revocations were put off this round
	computedAt      int64
}

func newClassic(s *sim) *classic {
	c := &classic{s: s, candidates: map[int32]bool{}}
	c.eager = s.sc.Protocol == "eager"
	c.assign = make([]int32, len(s.items))
	c.prev = make([]int32, len(s.items))
	fill(c.assign, -1)
	fill(c.prev, -1)
	var ws []int32
	for _, n := range s.sc.Members {
		m := s.byName[n]
		ws = append(ws, c.newEntry(m).id)
	}
	if len(ws) == 0 {
		return c
	}
	c.state, c.gen = gStable, 1
	if s.sc.InitialAssignment != nil {
		idx := map[string]int32{}
		for i, n := range s.names {
			idx[n] = int32(i)
		}
		for mn, its := range s.sc.InitialAssignment {
			for _, n := range its {
				c.assign[idx[n]] = s.byName[mn].entry.id
			}
		}
	} else {
		sorted := append([]int32(nil), ws...)
		sort.Slice(sorted, func(i, j int) bool { return c.all[sorted[i]].m.name < c.all[sorted[j]].m.name })
		c.compute(sorted, c.assign, c.assign)
	}
	copy(c.prev, c.assign)
	for it, id := range c.assign {
		if id >= 0 {
			m := c.all[id].m.idx
			x := &s.items[it]
			x.owner, x.lastOwner, x.state = m, m, stProcessing
			s.notProcessing--
			s.segs[it] = s.segs[it][:0]
			s.nsegs--
			s.recordSeg(int32(it))
			s.members[m].held = append(s.members[m].held, int32(it))
		}
	}
	for _, e := range c.entries {
		e.assigned = append([]int32(nil), e.m.held...)
	}
	return c
}

func (c *classic) newEntry(m *member) *entry {
	e := &entry{id: int32(len(c.all)), m: m, alive: true}
	m.entry = e
	c.all = append(c.all, e)
	c.entries = append(c.entries, e)
	c.nEntries++
	return e
}

// compute runs the eager-style assignor for the scenario over ws (sorted by name).
func (c *classic) compute(ws []int32, prev, out []int32) {
	s := c.s
	switch {
	case s.sc.Kind == "connect":
		s.assignConnectEager(ws, out)
	case s.sc.Assignor == "range":
		s.assignRange(ws, out)
	case s.sc.Assignor == "roundrobin":
		s.assignRoundRobin(ws, out)
	default:
		s.assignSticky(ws, prev, out)
	}
}

func (c *classic) growArrays() {
	for len(c.assign) < len(c.s.items) {
		c.assign = append(c.assign, -1)
		c.prev = append(c.prev, -1)
	}
}

func (c *classic) settled() bool {
	return c.state == gStable && c.followups == 0 && len(c.deferred) == 0 || c.state == gEmpty
}

func (c *classic) live() []*entry {
	out := c.entries[:0]
	for _, e := range c.entries {
		if !e.removed {
			out = append(out, e)
		}
	}
	c.entries = out
	return out
}

func (c *classic) findEntry(name string) *entry {
	for _, e := range c.entries {
		if !e.removed && e.m.name == name {
			return e
		}
	}
	return nil
}

// --- member side ---

func (c *classic) memberStarted(m *member) {
	inc := m.inc
	c.s.after(c.s.cfg.rpc, func() {
		if m.inc == inc && m.up {
			c.join(m, m.name+" joins")
		}
	})
}

// memberStopping: a graceful shutdown. The client commits and revokes everything; a dynamic
// member then sends LeaveGroup, a static one does not (KIP-345).
func (c *classic) memberStopping(m *member, down int64) {
	s := c.s
	e := m.entry
	static := s.sc.StaticMembership
	inc := m.inc
	s.revokeItems(m, s.heldList(m), false, func() {
		if m.inc != inc {
			return
		}
		s.dropItems(m, -1) // anything that arrived while shutting down is never started
		m.up, m.stopping = false, false
		m.inc++
		m.entry = nil
		if e != nil && !e.removed {
			if static {
				c.heartbeatsStop(e)
			} else {
				s.after(s.cfg.rpc, func() { c.remove(e, m.name+" leaves (LeaveGroup)") })
			}
		}
		s.restartAfter(m, down)
	})
}

func (c *classic) memberCrashed(m *member) {
	if e := m.entry; e != nil && !e.removed {
		m.entry = nil
		c.heartbeatsStop(e)
	}
}

// heartbeatsStop starts the session timer of an entry whose process is gone.
func (c *classic) heartbeatsStop(e *entry) {
	s := c.s
	e.alive = false
	e.revive++
	rev := e.revive
	s.at(s.lastTick(e.m, s.now)+s.cfg.rpc+s.cfg.session, func() {
		if !e.removed && !e.alive && e.revive == rev {
			c.remove(e, e.m.name+"'s session times out")
		}
	})
}

func (c *classic) pollTimeout(m *member) {
	e := m.entry
	if e == nil || e.removed {
		return
	}
	m.entry = nil
	if c.s.sc.StaticMembership {
		c.heartbeatsStop(e)
		return
	}
	c.s.after(c.s.cfg.rpc, func() { c.remove(e, m.name+" exceeds max.poll.interval.ms and leaves") })
}

func (c *classic) pollReturned(m *member) {
	inc := m.inc
	c.s.after(c.s.cfg.rpc, func() {
		if m.inc == inc && m.up {
			c.join(m, m.name+" rejoins after its slow poll")
		}
	})
}

func (c *classic) configChanged(why string) {
	c.growArrays()
	c.s.after(c.s.cfg.rpc, func() { c.trigger(why) })
}

// trigger starts (or joins into) a rebalance not caused by a particular joiner.
func (c *classic) trigger(why string) {
	switch c.state {
	case gStable:
		c.startRebalance(why)
	case gPreparing:
		c.addTrigger(why)
	case gCompleting:
		c.deferred = append(c.deferred, func() { c.trigger(why) })
	}
}

// --- coordinator side ---

// join handles a JoinGroup from m arriving at the coordinator.
func (c *classic) join(m *member, why string) {
	s := c.s
	if !m.up {
		return
	}
	if c.state == gCompleting {
		c.deferred = append(c.deferred, func() { c.join(m, why) })
		return
	}
	e := m.entry
	known := e != nil && !e.removed
	if !known {
		e = nil
		if s.sc.StaticMembership {
			// A static member rejoining with its instance id replaces its old member id.
			if old := c.findEntry(m.name); old != nil && !old.alive {
				e = old
				e.alive = true
				e.revive++
				m.entry = e
				if c.state == gStable {
					// Same instance, group stable: the old assignment comes back, no rebalance.
					c.deliver(m, e, e.assigned)
					return
				}
			}
		}
		if e == nil {
			if old := c.findEntry(m.name); old != nil && s.sc.StaticMembership {
				// A second instance with the same id fences the old one.
				c.fence(old)
			}
			if c.state == gEmpty || len(c.live()) == 0 {
				c.state = gEmpty
			}
			e = c.newEntry(m)
			if c.state == gPreparing && c.delaying {
				c.newJoiner = true
			}
		}
	}
	if !e.joined {
		c.nJoined++
	}
	e.joined = true
	// A snapshot without copying: held is copied before it is ever rewritten in place.
	e.owned = s.heldList(m)
	m.heldShared = true
	switch c.state {
	case gEmpty:
		c.startRebalance("group forms: " + why)
	case gStable:
		c.startRebalance(why)
	case gPreparing:
		if !known {
			c.addTrigger(why)
		}
		c.tryComplete()
	}
}

func (c *classic) fence(old *entry) {
	c.forget(old)
	if old.m.entry == old {
		old.m.entry = nil
	}
}

func (c *classic) deliver(m *member, e *entry, its []int32) {
	inc := m.inc
	c.s.after(c.s.cfg.rpc, func() {
		if m.inc == inc && m.entry == e {
			c.s.startItems(m, its)
			c.s.checkStable()
		}
	})
}

func (c *classic) addTrigger(why string) {
	if c.cur != nil && len(c.cur.triggers) < 4 && !contains(c.cur.triggers, why) {
		c.cur.triggers = append(c.cur.triggers, why)
	}
}

func (c *classic) startRebalance(why string) {
	s := c.s
	wasEmpty := c.state == gEmpty
	c.state = gPreparing
	c.round++
	round := c.round
	c.cur = &pending{triggers: []string{why}, start: s.now, revoked: map[int32][]int32{}}
	for _, e := range c.live() {
		if e.joined || !e.alive || e.m.entry != e {
			continue
		}
		m, inc := e.m, e.m.inc
		s.at(s.nextTick(m, s.now)+s.cfg.rpc, func() { c.notified(m, inc, round) })
	}
	s.after(s.cfg.reb, func() { c.deadline(round) })
	c.delaying, c.newJoiner = false, false
	if wasEmpty && s.cfg.initDelay > 0 {
		c.delaying = true
		c.initialDelay(round, s.cfg.initDelay, max(s.cfg.reb-s.cfg.initDelay, 0))
		return
	}
	c.tryComplete()
}

// initialDelay holds the first rebalance of an empty group (group.initial.rebalance.delay.ms),
// extending it while new members keep arriving, up to the rebalance timeout.
func (c *classic) initialDelay(round int, d, remaining int64) {
	c.s.after(d, func() {
		if c.round != round || c.state != gPreparing {
			return
		}
		if c.newJoiner && remaining > 0 {
			c.newJoiner = false
			next := min(c.s.cfg.initDelay, remaining)
			c.initialDelay(round, next, remaining-next)
			return
		}
		c.delaying = false
		c.tryComplete()
	})
}

// notified: m learns from a heartbeat response that the group is rebalancing.
func (c *classic) notified(m *member, inc, round int) {
	s := c.s
	e := m.entry
	if m.inc != inc || !m.up || e == nil || e.removed || c.state != gPreparing || c.round != round || e.joined {
		return
	}
	if m.pollBusyUntil > s.now {
		// Consumers send JoinGroup from poll(); a stuck poll loop delays it.
		s.at(m.pollBusyUntil, func() { c.notified(m, inc, round) })
		return
	}
	sendJoin := func() {
		s.after(s.cfg.rpc, func() {
			if m.inc == inc && m.up {
				c.join(m, m.name+" rejoins")
			}
		})
	}
	if c.eager {
		held := s.heldList(m)
		m.heldShared = true
		if len(held) > 0 {
			// held stays as it is now (heldShared), so the record can refer to it.
			c.cur.revoked[m.idx] = appendShared(c.cur.revoked[m.idx], held)
		}
		s.revokeItems(m, held, true, func() {
			if m.inc == inc {
				sendJoin()
			}
		})
		return
	}
	sendJoin()
}

func (c *classic) deadline(round int) {
	if c.round != round || c.state != gPreparing {
		return
	}
	for _, e := range c.live() {
		if !e.joined {
			c.dropEntry(e)
			if m := e.m; m.up && m.entry == nil && e.alive {
				// Its late JoinGroup is refused; it rejoins as a new member when it can.
				inc := m.inc
				c.s.at(max(c.s.now, m.pollBusyUntil)+c.s.cfg.rpc, func() {
					if m.inc == inc && m.up && m.entry == nil {
						c.join(m, m.name+" rejoins as a new member")
					}
				})
			}
		}
	}
	c.delaying = false
	c.tryComplete()
}

// dropEntry removes an entry without starting a new rebalance (the caller handles that).
func (c *classic) dropEntry(e *entry) {
	c.forget(e)
	if e.m.entry == e {
		e.m.entry = nil
		c.s.dropItems(e.m, -1)
	}
	c.s.unlabel(e.m, e.assigned)
}

func (c *classic) forget(e *entry) {
	if e.removed {
		return
	}
	e.removed = true
	c.nEntries--
	if e.joined {
		c.nJoined--
	}
}

// remove takes an entry out of the group (LeaveGroup or session timeout).
func (c *classic) remove(e *entry, why string) {
	if e.removed {
		return
	}
	c.dropEntry(e)
	switch c.state {
	case gStable:
		if len(c.live()) > 0 {
			c.startRebalance(why)
		} else {
			c.state = gEmpty
		}
	case gPreparing:
		c.addTrigger(why)
		c.tryComplete()
	case gCompleting:
		c.deferred = append(c.deferred, func() { c.trigger(why) })
	}
}

func (c *classic) tryComplete() {
	if c.state != gPreparing || c.delaying || c.nEntries > 0 && c.nJoined < c.nEntries {
		return
	}
	live := c.live()
	if len(live) == 0 {
		c.state = gEmpty
		return
	}
	for _, e := range live {
		if !e.joined {
			return
		}
	}
	c.completeJoin(live)
}

// rankedEntry is pointer-free so that sorting swaps plain words.
type rankedEntry struct{ r, i int32 }

func (c *classic) completeJoin(live []*entry) {
	s := c.s
	c.growArrays()
	// Sorted by name through ranks computed once; the same comparisons as sorting ws itself.
	keyed := make([]rankedEntry, len(live))
	for i, e := range live {
		keyed[i] = rankedEntry{s.rank(e.m), int32(i)}
	}
	sort.Slice(keyed, func(i, j int) bool { return keyed[i].r < keyed[j].r })
	ws := make([]*entry, len(live))
	for i, k := range keyed {
		ws[i] = live[k.i]
	}
	ids := make([]int32, len(ws))
	for i, e := range ws {
		ids[i] = e.id
	}
	c.gen++
	newA := map[*entry][]int32{}
	revoke := map[*entry][]int32{}
	var parked []int32
	var adds map[*entry][]int32
	viewDone := false // c.assign already reflects newA
	switch {
	case s.sc.Kind == "connect" && !c.eager:
		c.held = false
		newA, revoke, parked = c.connectIncremental(ws)
	case s.sc.Assignor == "sticky" || s.sc.Assignor == "cooperative-sticky":
		newA, revoke, adds = c.stickyRound(ws)
		viewDone = c.eager // eager sticky rebuilds the coordinator's view itself
	default:
		if cap(c.buf) < len(s.items) {
			c.buf = make([]int32, len(s.items))
			c.prevBuf = make([]int32, len(s.items))
		}
		out, prev := c.buf[:len(s.items)], c.prevBuf[:len(s.items)]
		// Range, round-robin and Connect's eager assignor ignore the previous owners, and eager
		// members withhold nothing: then prev is never read.
		needPrev := !c.eager || s.sc.Kind != "connect" && s.sc.Assignor != "range" && s.sc.Assignor != "roundrobin"
		if needPrev {
			fill(prev, -1)
		}
		switch {
		case !needPrev:
		case c.eager:
			// Eager sticky remembers the previous assignment through user data.
			for it, id := range c.assign {
				if id >= 0 && c.all[id].joined && !c.all[id].removed {
					prev[it] = id
				}
			}
		default:
			for _, e := range ws {
				for _, it := range e.owned {
					if prev[it] == -1 {
						prev[it] = e.id
					} else {
						prev[it] = -2 // claimed twice in one generation: neither claim counts
					}
				}
			}
		}
		c.compute(ids, prev, out)
		for _, e := range ws {
			e.next = make([]int32, 0, len(e.assigned)+8)
		}
		for it, m := range out {
			c.assign[it] = -1 // the coordinator's view, built here rather than from newA
			if m < 0 {
				continue
			}
			if p := prev[it]; !c.eager && p >= 0 && p != m {
				// KIP-429: a partition changing owner is withheld until its owner revokes it.
				revoke[c.all[p]] = append(revoke[c.all[p]], int32(it))
				continue
			}
			c.assign[it] = m
			e := c.all[m]
			e.next = append(e.next, int32(it))
		}
		for _, e := range ws {
			newA[e] = e.next
			e.next = nil
		}
		viewDone = true
	}
	if adds == nil && !viewDone {
		fill(c.assign, -1)
		for e, its := range newA {
			for _, it := range its {
				c.assign[it] = e.id
			}
		}
	}
	c.state = gCompleting
	c.computedAt = s.now
	cur := c.cur
	gen := c.gen
	s.after(2*s.cfg.rpc, func() { c.syncDone(ws, newA, adds, revoke, parked, cur, gen) })
}

// stickyRound runs sticky / cooperative-sticky over the members' lists, touching only what
// moves: eager sticky starts from the previous assignment, cooperative from what members own,
// and withholds partitions that change owner (KIP-429). adds is what each member gains now.
func (c *classic) stickyRound(ws []*entry) (newA, revoke, adds map[*entry][]int32) {
	s := c.s
	newA, revoke, adds = make(map[*entry][]int32, len(ws)), map[*entry][]int32{}, map[*entry][]int32{}
	owned := make([][]int32, len(ws))
	sum := 0
	for i, e := range ws {
		if c.eager {
			owned[i] = e.assigned
		} else {
			owned[i] = e.owned
		}
		sum += len(owned[i])
	}
	var orphans []int32
	if sum != s.liveCount {
		s.stamp++
		st := s.stamp
		for _, o := range owned {
			for _, it := range o {
				s.stamps[it] = st
			}
		}
		for g := range s.groups {
			for _, it := range s.liveItems(g) {
				if s.stamps[it] != st {
					orphans = append(orphans, it)
				}
			}
		}
	}
	keep, add := s.stickyLists(owned, orphans, false)
	from := map[int32]*entry{} // items given up by an over-quota member
	for i, e := range ws {
		if len(keep[i]) < len(owned[i]) {
			s.stamp++
			for _, it := range keep[i] {
				s.stamps[it] = s.stamp
			}
			for _, it := range owned[i] {
				if s.stamps[it] != s.stamp {
					from[it] = e
				}
			}
		}
	}
	for i, e := range ws {
		if len(add[i]) == 0 {
			newA[e] = keep[i] // keep lists are never modified afterwards
			continue
		}
		na := append(make([]int32, 0, len(keep[i])+len(add[i])), keep[i]...)
		for _, it := range add[i] {
			if old, ok := from[it]; ok && !c.eager {
				revoke[old] = append(revoke[old], it)
				c.assign[it] = -1
				continue
			}
			na = append(na, it)
			adds[e] = append(adds[e], it)
			c.assign[it] = e.id
		}
		newA[e] = na
	}
	if c.eager {
		// Everything restarts in eager; the coordinator's view is rebuilt in full.
		fill(c.assign, -1)
		for e, its := range newA {
			for _, it := range its {
				c.assign[it] = e.id
			}
		}
		adds = nil
	}
	return newA, revoke, adds
}

// syncDone: SyncGroup responses reach the members; they revoke and start what changed.
func (c *classic) syncDone(ws []*entry, newA, adds, revoke map[*entry][]int32, parked []int32, cur *pending, gen int) {
	s := c.s
	assignRec := make(map[int32][]int32, len(ws))
	addedRec := map[int32][]int32{}
	revokedRec := cur.revoked
	for _, e := range ws {
		if !e.removed {
			assignRec[e.m.idx] = newA[e]
		}
	}
	n := 0
	for _, l := range assignRec {
		n += len(l)
	}
	// Past the recording cap the round keeps no item lists: spare building them.
	record := s.roundItems+n <= maxRoundItems
	for _, e := range ws {
		m := e.m
		if e.joined && !e.removed {
			c.nJoined--
		}
		e.joined = false
		if e.removed {
			continue
		}
		switch {
		case !record:
		case adds != nil:
			addedRec[m.idx] = append(addedRec[m.idx], adds[e]...)
		default:
			s.stamp++
			for _, it := range e.assigned {
				s.stamps[it] = s.stamp
			}
			var added []int32 // collected apart: one map write per member, not per item
			for _, it := range newA[e] {
				if s.stamps[it] != s.stamp {
					added = append(added, it)
				}
			}
			if len(added) > 0 {
				addedRec[m.idx] = appendShared(addedRec[m.idx], added)
			}
		}
		e.assigned = newA[e]
		if m.entry != e || !m.up {
			continue
		}
		if rv := revoke[e]; len(rv) > 0 {
			if record {
				revokedRec[m.idx] = append(revokedRec[m.idx], rv...)
			}
			c.followups++
			inc := m.inc
			s.revokeItems(m, rv, true, func() {
				c.followups--
				if m.inc == inc {
					// The member rejoins at once so the withheld items can be handed out.
					s.after(s.cfg.rpc, func() { c.join(m, m.name+" rejoins after revoking") })
				}
			})
		}
		start := adds[e]
		if adds == nil {
			start = newA[e] // startItems skips what m already owns
		}
		s.startItems(m, start)
	}
	s.round(Round{Generation: gen, Trigger: strings.Join(cur.triggers, "; "), StartMS: cur.start, EndMS: s.now,
		StopTheWorld: c.eager, Parked: s.itemsOf(parked)}, recorded(record, assignRec), revokedRec, addedRec)
	if len(s.res.Rounds[len(s.res.Rounds)-1].Parked) == 0 {
		s.res.Rounds[len(s.res.Rounds)-1].Parked = nil
	}
	c.state = gStable
	c.checkRound(ws, revoke, parked)
	d := c.deferred
	c.deferred = nil
	for _, f := range d {
		f()
	}
	if c.scheduled > 0 && c.state == gStable {
		at := c.scheduled
		s.at(at, func() {
			if c.scheduled == at && c.state == gStable && len(c.live()) > 0 {
				c.startRebalance("scheduled.rebalance.max.delay.ms expires")
			}
		})
	}
	s.checkStable()
}

// recorded is the assignment to record, or nil when the round is past the recording cap.
func recorded(record bool, assign map[int32][]int32) map[int32][]int32 {
	if !record {
		return nil
	}
	return assign
}

// checkRound verifies the invariants of a finished round.
func (c *classic) checkRound(ws []*entry, revoke map[*entry][]int32, parked []int32) {
	s := c.s
	pending := len(parked) > 0
	for _, rv := range revoke {
		if len(rv) > 0 {
			pending = true
		}
	}
	if pending || c.held || len(ws) == 0 {
		return
	}
	n := 0
	for _, e := range ws {
		if !e.removed {
			n += len(e.assigned)
		}
	}
	if n != s.liveCount {
		for it := range s.items {
			if x := &s.items[it]; x.exists && !x.deleted && s.info[it].born <= c.computedAt && c.assign[it] < 0 {
				s.invariant("round %d: %s is assigned to nobody in a stable group", c.gen, s.names[it])
				break
			}
		}
	}
	if s.sc.Kind == "consumer" && s.sc.Assignor == "range" && len(s.groups) > 1 {
		return // range balances each topic, not the total
	}
	for _, conn := range []bool{true, false} {
		lo, hi := -1, -1
		for _, e := range ws {
			if e.removed {
				continue
			}
			n := len(e.assigned)
			if s.sc.Kind == "connect" {
				n = 0
				for _, it := range e.assigned {
					if (s.info[it].part < 0) == conn {
						n++
					}
				}
			}
			if lo < 0 || n < lo {
				lo = n
			}
			if n > hi {
				hi = n
			}
		}
		if hi-lo > 1 {
			s.invariant("round %d: counts range from %d to %d (must differ by at most one)", c.gen, lo, hi)
		}
		if s.sc.Kind == "consumer" {
			break
		}
	}
}

// connectIncremental is KIP-415's leader logic: keep what runs, park lost work for the
// scheduled delay, hand new work to the least loaded, revoke for balance only without a delay.
func (c *classic) connectIncremental(ws []*entry) (newA, revoke map[*entry][]int32, parked []int32) {
	s := c.s
	now := s.now
	newA, revoke = map[*entry][]int32{}, map[*entry][]int32{}
	active := make([]int32, len(s.items))
	fill(active, -1)
	byID := map[int32]*entry{}
	for _, e := range ws {
		byID[e.id] = e
		for _, it := range e.owned {
			x := &s.items[it]
			if !x.exists || x.deleted {
				revoke[e] = append(revoke[e], it)
				continue
			}
			active[it] = e.id
			newA[e] = append(newA[e], it)
		}
	}
	var lost, fresh []int32
	prevMembersPresent := true
	for it := range s.items {
		x := &s.items[it]
		if !x.exists || x.deleted || active[it] >= 0 {
			continue
		}
		if c.prev[it] >= 0 {
			lost = append(lost, int32(it))
			if byID[c.prev[it]] == nil {
				prevMembersPresent = false
			}
		} else {
			fresh = append(fresh, int32(it))
		}
	}
	delayActive := false
	switch {
	case len(lost) == 0:
		c.scheduled = 0
		clear(c.candidates)
	case s.cfg.schedDelay == 0 || (c.scheduled == 0 && prevMembersPresent):
		fresh = append(fresh, lost...)
		c.scheduled = 0
		clear(c.candidates)
	case c.scheduled > 0 && now >= c.scheduled:
		var cands []*entry
		for _, e := range ws {
			if c.candidates[e.id] {
				cands = append(cands, e)
			}
		}
		if len(cands) > 0 {
			k := 0
			for _, conn := range []bool{true, false} {
				for _, it := range lost {
					if (s.info[it].part < 0) == conn {
						e := cands[k%len(cands)]
						newA[e] = append(newA[e], it)
						k++
					}
				}
			}
		} else {
			fresh = append(fresh, lost...)
		}
		c.scheduled = 0
		clear(c.candidates)
	default:
		for _, e := range ws {
			if len(newA[e]) == 0 {
				c.candidates[e.id] = true
			}
		}
		if c.scheduled == 0 || now >= c.scheduled {
			c.scheduled = now + s.cfg.schedDelay
		}
		delayActive = true
		parked = lost
	}
	// New work goes to the least loaded worker, connectors and tasks counted apart.
	for _, conn := range []bool{true, false} {
		load := func(e *entry) int {
			n := 0
			for _, it := range newA[e] {
				if (s.info[it].part < 0) == conn {
					n++
				}
			}
			return n
		}
		loads := make([]int, len(ws))
		for i, e := range ws {
			loads[i] = load(e)
		}
		for _, it := range fresh {
			if (s.info[it].part < 0) != conn {
				continue
			}
			best := 0
			for i := range ws {
				if loads[i] < loads[best] {
					best = i
				}
			}
			newA[ws[best]] = append(newA[ws[best]], it)
			loads[best]++
		}
	}
	// Load-balancing revocations, only when no delay is active, with back-off between
	// successive revoking rounds.
	want := map[*entry][]int32{}
	if !delayActive && c.scheduled == 0 {
		for _, conn := range []bool{true, false} {
			type wl struct {
				e   *entry
				its []int32
			}
			var w []wl
			total := 0
			for _, e := range ws {
				var its []int32
				for _, it := range newA[e] {
					if (s.info[it].part < 0) == conn {
						its = append(its, it)
					}
				}
				w = append(w, wl{e, its})
				total += len(its)
			}
			q, r := total/len(w), total%len(w)
			sort.SliceStable(w, func(i, j int) bool { return len(w[i].its) > len(w[j].its) })
			for i, x := range w {
				allowed := q
				if i < r {
					allowed++
				}
				if excess := len(x.its) - allowed; excess > 0 {
					sort.Slice(x.its, func(a, b int) bool { return s.less(x.its[a], x.its[b]) })
					want[x.e] = append(want[x.e], x.its[len(x.its)-excess:]...)
				}
			}
		}
	}
	if len(want) > 0 {
		if c.prevRevoked && now < c.revokeAllowedAt {
			c.held = true
			at := c.revokeAllowedAt
			s.at(at, func() {
				if c.state == gStable {
					c.startRebalance("revocation back-off expires")
				}
			})
		} else {
			c.nSucc++
			backoff := int64(40)
			for i := 1; i < c.nSucc && backoff < s.cfg.schedDelay; i++ {
				backoff *= 40
			}
			c.revokeAllowedAt = now + min(backoff, max(s.cfg.schedDelay, 40))
			c.prevRevoked = true
			for e, its := range want {
				drop := map[int32]bool{}
				for _, it := range its {
					drop[it] = true
				}
				keep := newA[e][:0:0]
				for _, it := range newA[e] {
					if !drop[it] {
						keep = append(keep, it)
					}
				}
				newA[e] = keep
				revoke[e] = append(revoke[e], its...)
			}
		}
	} else {
		c.prevRevoked, c.nSucc = false, 0
	}
	// The leader remembers this assignment; parked work keeps its old owner so it stays "lost".
	isParked := make([]bool, len(s.items))
	for _, it := range parked {
		isParked[it] = true
	}
	for it := range c.prev {
		if !isParked[it] {
			c.prev[it] = -1
		}
	}
	for e, its := range newA {
		for _, it := range its {
			c.prev[it] = e.id
		}
	}
	for e, its := range newA {
		sort.Slice(its, func(a, b int) bool { return s.less(its[a], its[b]) })
		newA[e] = its
	}
	return newA, revoke, parked
}
