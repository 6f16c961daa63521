package rebalance

import (
	"slices"
	"sort"
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
	m       *member
	id      int32 // assignments refer to entries, since a name can have a ghost and a live entry
	alive   bool  // the process behind it still heartbeats
	joined  bool
	removed bool
	eager   bool    // it runs the EAGER protocol
	owned   []int32 // reported in JoinGroup (cooperative)
	// assigned is from the last SyncGroup; the fields above fill one cache line, read for
	// every member in every round.
	assigned  []int32
	assignors []assignor // the list in its JoinGroup
	revive    int
	next      []int32 // scratch while computing an assignment
}

type pending struct {
	triggers []string
	start    int64
	revoked  []memberItems // what members revoked while it prepared, in order
}

// memberItems is one member's list, kept as a pair so a round not recorded builds no map.
type memberItems struct {
	m   int32
	its []int32
}

type classic struct {
	s        *sim
	state    gstate
	entries  []*entry
	all      []*entry // every entry ever, by id
	nEntries int      // live entries
	nJoined  int      // live entries that joined the current round
	// removedSince: some entry was removed since live last compacted entries.
	removedSince bool
	gen          int
	round        int
	delaying     bool
	newJoiner    bool
	deferred     []func()
	cur          *pending
	assign       []int32 // the coordinator's view: item -> member (-1); read it through view()
	// viewFrom, when set, holds the last round's lists that assign is still to be built from.
	viewFrom  *roundLists
	followups int // revocations whose rejoin is still to come
	buf       []int32
	prevBuf   []int32
	slots     []*entry // byName's scratch, by member rank: all nil between calls
	// spareRevoked is the last finished round's revoked pairs, emptied, for the next round.
	spareRevoked []memberItems
	blockAt      []int64 // startRebalance's scratch
	blockAct     []act
	spareLists   [][][]int32 // stickyRound's outer lists, back from syncDone
	ownedBuf     [][]int32   // stickyRound's scratch
	keysBuf      []int32
	wsBuf        [2][]*entry // byName's lists, in turn
	wsTurn       int
	from         []int32 // see stickyRound
	given        []int32

	eager      bool     // the group runs the eager protocol (Connect V0, consumers' EAGER)
	mixed      bool     // this eager round has cooperative members too: they keep what they own
	assignor   assignor // the assignor the group runs
	computedAt int64    // when the last assignment was computed

	connectLeader // Connect's incremental (KIP-415) leader state, connect.go
}

func newClassic(s *sim) *classic {
	c := &classic{s: s}
	c.candidates = map[int32]bool{}
	c.eager = s.proto == protoEager
	c.assignor = assignorNames[s.sc.Assignor]
	c.assign = make([]int32, len(s.items))
	c.prev = make([]int32, len(s.items))
	fill(c.assign, -1)
	fill(c.prev, -1)
	var ws []int32
	for _, n := range s.sc.Members {
		m := s.byName[n]
		// The group formed in one round before t = 0: its members heartbeat on one phase.
		m.phase = s.byName[s.sc.Members[0]].phase
		ws = append(ws, c.newEntry(m).id)
	}
	if len(ws) == 0 {
		return c
	}
	if s.kind == kindConsumer {
		c.assignor = vote(c.entries)
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
	c.setAssignors(e, m)
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
	case s.kind == kindConnect:
		s.assignConnectEager(ws, out)
	case c.assignor == asRange:
		s.assignRange(ws, out)
	case c.assignor == asRoundRobin:
		s.assignRoundRobin(ws, out)
	default:
		s.assignSticky(ws, prev, out)
	}
}

// view is the coordinator's view (item -> entry id, -1), built first if a round left it pending.
func (c *classic) view() []int32 {
	if c.viewFrom != nil {
		fill(c.assign, -1)
		for i, e := range c.viewFrom.ws {
			for _, it := range c.viewFrom.lists[i] {
				c.assign[it] = e.id
			}
		}
		c.viewFrom = nil
	}
	return c.assign
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

// live is the entries not removed, c.entries compacted in place: only after a removal (forget),
// since otherwise the compaction would write back the same list.
func (c *classic) live() []*entry {
	if !c.removedSince {
		return c.entries
	}
	c.removedSince = false
	out := c.entries[:0]
	for _, e := range c.entries {
		if !e.removed {
			out = append(out, e)
		}
	}
	c.entries = out
	return out
}

// instance is the live entry a static member's instance id names, or nil; dynamic members have
// no instance id (a joiner is new).
func (c *classic) instance(name string) *entry {
	if !c.s.sc.StaticMembership {
		return nil
	}
	for _, e := range c.entries {
		if !e.removed && e.m.name == name {
			return e
		}
	}
	return nil
}

// --- coordinator side ---

// join handles a JoinGroup from m arriving at the coordinator; m.name+action says why, and is
// only built when a trigger needs it (most JoinGroups answer a rebalance already under way).
func (c *classic) join(m *member, action string) {
	s := c.s
	if !m.up {
		return
	}
	if c.state == gCompleting {
		c.deferred = append(c.deferred, func() { c.join(m, action) })
		return
	}
	e := m.entry
	known := e != nil && !e.removed
	if !known {
		e = nil
		var self *entry // the old member id a static member replaces
		if old := c.instance(m.name); old != nil && !old.alive {
			self = old
		}
		if s.kind == kindConsumer && !consistent(c.live(), self, m.assignors) {
			c.reject(m)
			return
		}
		if self != nil {
			// A static member rejoining with its instance id replaces its old member id.
			e = self
			e.alive = true
			e.revive++
			m.entry = e
			c.setAssignors(e, m)
			if c.state == gStable && (s.kind != kindConsumer || vote(c.live()) == c.assignor) {
				// Same instance, group stable, the vote unchanged: the old assignment comes
				// back, no rebalance (Kafka's updateStaticMemberAndRebalance); the JoinGroup
				// response restarts its heartbeat timer.
				c.s.resync(m, s.now+s.cfg.rpc)
				c.deliver(m, e, e.assigned)
				return
			}
		}
		if e == nil {
			if old := c.instance(m.name); old != nil {
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
		c.startRebalance("group forms: " + m.name + action)
	case gStable:
		c.startRebalance(m.name + action)
	case gPreparing:
		if !known {
			c.addTrigger(m.name + action)
		}
		c.tryComplete()
	}
}

// setAssignors takes the member's current list into its entry.
func (c *classic) setAssignors(e *entry, m *member) {
	e.assignors = m.assignors
	e.eager = c.eager
	if c.s.kind == kindConsumer {
		e.eager = !cooperativeList(m.assignors)
	}
}

// reject refuses a JoinGroup with INCONSISTENT_GROUP_PROTOCOL: the client's poll() throws and
// the process is taken to fail; it stays out of the group.
func (c *classic) reject(m *member) {
	s := c.s
	s.markReason("rejected", m.name, "INCONSISTENT_GROUP_PROTOCOL: none of its assignors is supported by every member")
	s.dropItems(m, -1)
	m.up, m.stopping = false, false
	m.inc++
	m.entry = nil
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
	if c.cur != nil && len(c.cur.triggers) < 4 && !slices.Contains(c.cur.triggers, why) {
		c.cur.triggers = append(c.cur.triggers, why)
	}
}

func (c *classic) startRebalance(why string) {
	s := c.s
	wasEmpty := c.state == gEmpty
	c.state = gPreparing
	c.round++
	round := c.round
	c.cur = &pending{triggers: []string{why}, start: s.now, revoked: c.spareRevoked}
	c.spareRevoked = nil
	// Every member hears of it at its next heartbeat: one block of events (see pushBlock).
	ats, acts := c.blockAt[:0], c.blockAct[:0]
	phase, at := int64(0), int64(-1) // the last member's phase and time: members mostly share one
	for _, e := range c.live() {
		if e.joined || !e.alive || e.m.entry != e {
			continue
		}
		m := e.m
		if at < 0 || m.phase != phase {
			phase, at = m.phase, max(s.nextTick(m, s.now)+s.cfg.rpc, s.now)
		}
		ats = append(ats, at)
		acts = append(acts, typed(actNotified, m.idx, int32(m.inc), int32(round)))
	}
	s.q.pushBlock(ats, acts)
	c.blockAt, c.blockAct = ats, acts[:0]
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
	if at := s.pollAt(m); at > s.now {
		// Consumers revoke and send JoinGroup from poll(): a member busy with a batch (or stuck
		// in a slow one) answers when it polls next, processing its items until then.
		s.atAct(at, typed(actNotified, m.idx, int32(inc), int32(round)))
		return
	}
	if e.eager {
		held := s.heldList(m)
		m.heldShared = true
		if len(held) > 0 {
			// held stays as it is now (heldShared), so the record can refer to it.
			c.cur.revoked = append(c.cur.revoked, memberItems{m.idx, held})
		}
		s.revokeItems(m, held, true, typed(actRevokedRejoin, m.idx, int32(inc), 0))
		return
	}
	c.sendJoin(m, inc)
}

// sendJoin: m sends its JoinGroup in answer to a rebalance; it reaches the coordinator rpc_ms later.
func (c *classic) sendJoin(m *member, inc int) {
	c.s.afterAct(c.s.cfg.rpc, typed(actRejoin, m.idx, int32(inc), 0))
}

// The classic protocol's typed acts: the events a round schedules for every member.
const (
	actNotified          actKind = iota + 1 // a heartbeat response tells m (a: inc) of round b
	actRejoin                               // m's JoinGroup (a: inc) in answer to a rebalance arrives
	actRevokedRejoin                        // m (a: inc) has revoked its items for the round: it sends its JoinGroup
	actFollowupRevoked                      // m has revoked what a cooperative round took from it (revokeItems checked its inc)
	actRejoinAfterRevoke                    // m's JoinGroup after that revocation arrives
)

func (c *classic) fire(a act) {
	switch m := c.s.members[a.m]; a.kind() {
	case actNotified:
		c.notified(m, int(a.a), int(a.b))
	case actRejoin:
		if m.inc == int(a.a) && m.up {
			c.join(m, " rejoins")
		}
	case actRevokedRejoin:
		if m.inc == int(a.a) {
			c.sendJoin(m, int(a.a))
		}
	case actFollowupRevoked:
		c.followups--
		// The member rejoins at once so the withheld items can be handed out.
		c.s.afterAct(c.s.cfg.rpc, typed(actRejoinAfterRevoke, m.idx, 0, 0))
	case actRejoinAfterRevoke:
		c.join(m, " rejoins after revoking")
	}
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
						c.join(m, " rejoins as a new member")
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
	c.removedSince = true
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
