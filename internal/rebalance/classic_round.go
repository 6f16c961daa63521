package rebalance

import (
	"slices"
	"sort"
	"strings"
)

// rankedEntry is pointer-free so that sorting swaps plain words.
type rankedEntry struct{ r, i int32 }

func (c *classic) completeJoin(live []*entry) {
	s := c.s
	c.growArrays()
	ws := c.byName(live)
	c.gen++
	if s.kind == kindConsumer {
		// The vote picks the assignor; the round is eager if any member runs EAGER.
		c.assignor = vote(ws)
		c.eager, c.mixed = false, false
		for _, e := range ws {
			c.eager = c.eager || e.eager
			c.mixed = c.mixed || !e.eager
		}
		c.mixed = c.mixed && c.eager
	}
	// JoinGroup responses reach the members: each restarts its heartbeat timer.
	for _, e := range ws {
		if e.m.entry == e && e.m.up {
			s.resync(e.m, s.now+s.cfg.rpc)
		}
	}
	var newA map[*entry][]int32 // made by the branch that fills it
	var lists [][]int32         // newA by position in ws, which syncDone reads
	var addL [][]int32          // what each member starts, by position; nil: its whole list
	var revoke map[*entry][]int32
	var revL [][]int32 // revoke by position, nil when nothing is revoked
	var parked []int32
	viewDone := false // c.assign already reflects newA
	pooled := false   // lists and addL come from stickyRound's pool
	switch {
	case s.kind == kindConnect && !c.eager:
		c.held = false
		newA, revoke, parked = c.connectIncremental(ws)
	case c.assignor == asSticky || c.assignor == asCoopSticky:
		// Eager sticky rebuilds the coordinator's view itself, cooperative updates it.
		lists, revL, addL = c.stickyRound(ws)
		viewDone, pooled = true, true
	case c.eager && s.kind == kindConsumer && c.assignor == asRange && len(s.groups) == 1:
		// Eager range over one topic: each member's share is a run of the topic's partitions,
		// so its list is a slice of the topic's own, in the same (index) order as built below.
		lists = make([][]int32, len(ws))
		parts := s.liveItems(0)
		if parts == nil {
			parts = []int32{}
		}
		q, extra := len(parts)/len(ws), len(parts)%len(ws)
		p := 0
		for i := range ws {
			n := q
			if i < extra {
				n++
			}
			lists[i] = parts[p : p+n : p+n] // capped: never appended to in place
			p += n
		}
		c.viewFrom, viewDone = &roundLists{ws, lists}, true // the coordinator's view, built only when read
	default:
		if cap(c.buf) < len(s.items) {
			c.buf = make([]int32, len(s.items))
			c.prevBuf = make([]int32, len(s.items))
		}
		out, prev := c.buf[:len(s.items)], c.prevBuf[:len(s.items)]
		// Range, round-robin and Connect's eager assignor ignore the previous owners, and eager
		// members withhold nothing: then prev is never read.
		needPrev := !c.eager || s.kind != kindConnect && c.assignor != asRange && c.assignor != asRoundRobin
		if needPrev {
			fill(prev, -1)
		}
		switch {
		case !needPrev:
		case c.eager:
			// Eager sticky remembers the previous assignment through user data.
			for it, id := range c.view() {
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
		c.viewFrom = nil // rebuilt in full below
		revoke = map[*entry][]int32{}
		ids := make([]int32, len(ws))
		for i, e := range ws {
			ids[i] = e.id
		}
		c.compute(ids, prev, out)
		newA = make(map[*entry][]int32, len(ws))
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
	if !viewDone {
		c.viewFrom = nil
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
	if lists == nil {
		lists = byPosition(ws, newA)
	}
	revoking := revL != nil // stickyRound makes it with the first item revoked
	for _, rv := range revoke {
		revoking = revoking || len(rv) > 0
	}
	if len(revoke) > 0 {
		revL = byPosition(ws, revoke)
	}
	s.after(2*s.cfg.rpc, func() {
		c.syncDone(ws, lists, addL, revL, revoking, parked, cur, gen)
		if pooled {
			// Nothing keeps the outer lists (syncDone took the inner ones): the next rounds
			// reuse them.
			for _, l := range [][][]int32{lists, addL, revL} {
				if l != nil {
					c.spareLists = append(c.spareLists, l)
				}
			}
		}
	})
}

// takeLists is a cleared list of n lists, from the pool when it has one.
func (c *classic) takeLists(n int) [][]int32 {
	if k := len(c.spareLists); k > 0 {
		l := c.spareLists[k-1]
		c.spareLists = c.spareLists[:k-1]
		if cap(l) >= n {
			l = l[:n]
			clear(l)
			return l
		}
	}
	return make([][]int32, n)
}

// roundLists is a round's lists by position in ws.
type roundLists struct {
	ws    []*entry
	lists [][]int32
}

// byPosition is m's lists by position in ws (nil for an empty ws).
func byPosition(ws []*entry, m map[*entry][]int32) [][]int32 {
	if len(ws) == 0 {
		return nil
	}
	out := make([][]int32, len(ws))
	for i, e := range ws {
		out[i] = m[e]
	}
	return out
}

// byName orders the live entries by member name. Ranks are positions in name order, so when no
// two entries share a member each has a slot of its own and the order is read off the slots;
// otherwise (a ghost beside its member's new entry) they are sorted by rank as before.
//
// The list is one of two kept for it in turn: a round's list is read until its SyncGroup
// completes (and, as viewFrom, until the next round's completeJoin), and the next round's
// completeJoin comes only after that SyncGroup, so it takes the other one.
func (c *classic) byName(live []*entry) []*entry {
	s := c.s
	c.wsTurn ^= 1
	ws := slices.Grow(c.wsBuf[c.wsTurn][:0], len(live))
	defer func() { c.wsBuf[c.wsTurn] = ws[:0] }()
	if len(c.slots) < len(s.members) {
		c.slots = make([]*entry, len(s.members))
	}
	slots, shared := c.slots[:len(s.members)], false
	for _, e := range live {
		r := s.rank(e.m)
		if slots[r] != nil {
			shared = true
			break
		}
		slots[r] = e
	}
	if !shared {
		for r, e := range slots {
			if e != nil {
				ws = append(ws, e)
				slots[r] = nil
			}
		}
		return ws
	}
	clear(slots)
	// Sorted by name through ranks computed once; the same comparisons as sorting ws itself.
	keyed := make([]rankedEntry, len(live))
	for i, e := range live {
		keyed[i] = rankedEntry{s.rank(e.m), int32(i)}
	}
	sort.Slice(keyed, func(i, j int) bool { return keyed[i].r < keyed[j].r })
	for _, k := range keyed {
		ws = append(ws, live[k.i])
	}
	return ws
}

// stickyRound runs sticky / cooperative-sticky over the members' lists, touching only what
// moves: eager sticky starts from the previous assignment, cooperative from what members own,
// and withholds partitions that change owner (KIP-429). adds is what each member gains now,
// revoke what each gives up (nil when none does). The lists are by position in ws; adds is nil
// for eager sticky (everything restarts).
func (c *classic) stickyRound(ws []*entry) (lists, revoke, adds [][]int32) {
	s := c.s
	lists, adds = c.takeLists(len(ws)), c.takeLists(len(ws))
	// owned and keys are scratch, read only in here.
	owned := slices.Grow(c.ownedBuf[:0], len(ws))[:len(ws)]
	keys := slices.Grow(c.keysBuf[:0], len(ws))[:len(ws)]
	defer func() {
		clear(owned)
		c.ownedBuf, c.keysBuf = owned[:0], keys[:0]
	}()
	c.view() // updated item by item below
	sum := 0
	for i, e := range ws {
		keys[i] = e.id
		if c.assignor == asSticky {
			// StickyAssignor sends its last assignment as user data; cooperative-sticky relies
			// on the owned partitions, which an EAGER member has already revoked.
			owned[i] = e.assigned
		} else {
			owned[i] = e.owned
		}
		sum += len(owned[i])
	}
	keep, add := s.stickyLists(owned, s.orphans(keys, owned, sum), false)
	// from: per item, the position in ws of the over-quota member that gave it up, or -1;
	// given lists the items set, which are reset to -1 at the end.
	for len(c.from) < len(s.items) {
		c.from = append(c.from, -1)
	}
	from, given := c.from, c.given[:0]
	for k := 0; k < len(s.gave); k += 2 {
		// What an over-quota member's list holds beyond what it keeps, member by member.
		from[s.gave[k]] = s.gave[k+1]
		given = append(given, s.gave[k])
	}
	defer func() {
		for _, it := range given {
			from[it] = -1
		}
		c.given = given[:0]
	}()
	for i, e := range ws {
		if len(add[i]) == 0 {
			lists[i] = keep[i] // keep lists are never modified afterwards
			continue
		}
		na := append(make([]int32, 0, len(keep[i])+len(add[i])), keep[i]...)
		for _, it := range add[i] {
			if p := from[it]; p >= 0 && c.assignor == asCoopSticky {
				if revoke == nil {
					revoke = c.takeLists(len(ws))
				}
				revoke[p] = append(revoke[p], it)
				c.assign[it] = -1
				continue
			}
			na = append(na, it)
			adds[i] = append(adds[i], it)
			c.assign[it] = e.id
		}
		lists[i] = na
	}
	if c.assignor == asSticky {
		// Everything restarts in eager; the coordinator's view is rebuilt in full.
		fill(c.assign, -1)
		for i, e := range ws {
			for _, it := range lists[i] {
				c.assign[it] = e.id
			}
		}
		adds = nil
	}
	return lists, revoke, adds
}

// syncDone: SyncGroup responses reach the members; they revoke and start what changed.
// lists, adds and rv are by position in ws: the assignment, what each member gains (nil: start
// the whole assignment) and what each revokes (nil: nothing); revoking: some list in rv is not
// empty.
func (c *classic) syncDone(ws []*entry, lists, adds, rv [][]int32, revoking bool, parked []int32, cur *pending, gen int) {
	s := c.s
	// Past the recording cap the round keeps no item lists: spare building them (the maps
	// too, unless two entries share a member, when the map decides which list counts).
	n, distinct := 0, true
	for i, e := range ws {
		if !e.removed {
			n += len(lists[i])
			distinct = distinct && e.m.recGen != gen
			e.m.recGen = gen
		}
	}
	var assignRec, revokedRec map[int32][]int32
	if !distinct {
		assignRec, n = c.assignRecord(ws, lists)
	}
	record := s.roundItems+n <= maxRoundItems
	addedRec := map[int32][]int32{}
	unrecorded := 0 // revoked items the round counts without recording them
	if record {
		if assignRec == nil {
			assignRec, _ = c.assignRecord(ws, lists)
		}
		revokedRec = make(map[int32][]int32, len(cur.revoked))
		for _, r := range cur.revoked {
			revokedRec[r.m] = appendShared(revokedRec[r.m], r.its)
		}
	} else {
		for _, r := range cur.revoked {
			unrecorded += len(r.its)
		}
	}
	// Nothing reads the pairs after this (the map holds the lists): the next round reuses them.
	clear(cur.revoked)
	c.spareRevoked, cur.revoked = cur.revoked[:0], nil
	for i, e := range ws {
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
			addedRec[m.idx] = append(addedRec[m.idx], adds[i]...)
		default:
			s.stamp++
			for _, it := range e.assigned {
				s.stamps[it] = s.stamp
			}
			var added []int32 // collected apart: one map write per member, not per item
			for _, it := range lists[i] {
				if s.stamps[it] != s.stamp {
					added = append(added, it)
				}
			}
			if len(added) > 0 {
				addedRec[m.idx] = appendShared(addedRec[m.idx], added)
			}
		}
		e.assigned = lists[i]
		if m.entry != e || !m.up {
			continue
		}
		rv := nth(rv, i)
		if len(rv) > 0 {
			if record {
				revokedRec[m.idx] = append(revokedRec[m.idx], rv...)
			}
			c.followups++
		}
		start := nth(adds, i)
		if adds == nil {
			start = lists[i] // startItems skips what m already owns
		}
		if len(rv) == 0 && len(start) == 0 {
			continue
		}
		if w := s.pollWait(m); w > 0 {
			// The callbacks run in poll(): a member still processing (a cooperative one) takes
			// its new assignment at its next poll.
			c.syncLater(m, e, gen, rv, start, w)
			continue
		}
		c.applySync(m, rv, start)
	}
	s.round(Round{Generation: gen, Trigger: strings.Join(cur.triggers, "; "), StartMS: cur.start, EndMS: s.now,
		StopTheWorld: c.eager && !c.mixed, Parked: s.itemsOf(parked), Protocol: c.protocolName(), Assignor: assignorName(c.assignor)}, recorded(record, assignRec), revokedRec, addedRec, unrecorded)
	if len(s.res.Rounds[len(s.res.Rounds)-1].Parked) == 0 {
		s.res.Rounds[len(s.res.Rounds)-1].Parked = nil
	}
	c.state = gStable
	c.checkRound(ws, revoking, parked)
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

// assignRecord is the round's assignment by member, and its size.
func (c *classic) assignRecord(ws []*entry, lists [][]int32) (map[int32][]int32, int) {
	rec := make(map[int32][]int32, len(ws))
	for i, e := range ws {
		if !e.removed {
			rec[e.m.idx] = lists[i]
		}
	}
	n := 0
	for _, l := range rec {
		n += len(l)
	}
	return rec, n
}

// nth is l[i], or nil when l is.
func nth(l [][]int32, i int) []int32 {
	if l == nil {
		return nil
	}
	return l[i]
}

// recorded is the assignment to record, or nil when the round is past the recording cap.
func recorded(record bool, assign map[int32][]int32) map[int32][]int32 {
	if !record {
		return nil
	}
	return assign
}

// checkRound verifies the invariants of a finished round.
func (c *classic) checkRound(ws []*entry, revoking bool, parked []int32) {
	s := c.s
	if revoking || len(parked) > 0 || c.held || len(ws) == 0 {
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
			if x := &s.items[it]; x.exists && !x.deleted && s.info[it].born <= c.computedAt && c.view()[it] < 0 {
				s.invariant("round %d: %s is assigned to nobody in a stable group", c.gen, s.names[it])
				break
			}
		}
	}
	if s.kind == kindConsumer && c.assignor == asRange && len(s.groups) > 1 {
		return // range balances each topic, not the total
	}
	for _, conn := range []bool{true, false} {
		lo, hi := -1, -1
		for _, e := range ws {
			if e.removed {
				continue
			}
			n := len(e.assigned)
			if s.kind == kindConnect {
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
		if s.kind == kindConsumer {
			break
		}
	}
}

// protocolName is the round's protocol as the result shows it.
func (c *classic) protocolName() string {
	switch {
	case c.s.kind == kindConnect && c.eager:
		return "eager"
	case c.s.kind == kindConnect:
		return "incremental"
	case c.eager:
		return "eager"
	}
	return "cooperative"
}

// applySync is a member taking its SyncGroup answer in poll(): it revokes what the round took
// from it (its follow-up rejoin comes after) and starts what it gained.
func (c *classic) applySync(m *member, rv, start []int32) {
	if len(rv) > 0 {
		c.s.revokeItems(m, rv, true, typed(actFollowupRevoked, m.idx, 0, 0))
	}
	if len(start) > 0 {
		c.s.startItems(m, start)
	}
}

// syncLater applies a SyncGroup answer at m's next poll, w from now. A later generation's
// assignment supersedes what this one would start; a restarted process takes nothing.
func (c *classic) syncLater(m *member, e *entry, gen int, rv, start []int32, w int64) {
	inc := m.inc
	c.s.after(w, func() {
		if m.inc != inc || m.entry != e || !m.up {
			if len(rv) > 0 {
				c.followups--
			}
			return
		}
		if c.gen != gen {
			start = nil
		}
		c.applySync(m, rv, start)
		c.s.checkStable()
	})
}
