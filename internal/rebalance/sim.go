package rebalance

import (
	"context"
	"fmt"
	"slices"
	"sort"
)

// Item states, compact.
const (
	stUnowned uint8 = iota
	stStarting
	stProcessing
	stRevoking
)

var stateNames = [...]string{StateUnowned, StateStarting, StateProcessing, StateRevoking}

// Recording caps keep memory bounded on huge runs; metrics stay exact beyond them.
const (
	maxSegments   = 3_000_000
	maxRoundItems = 3_000_000
	maxSteps      = 2_000_000_000 // a backstop against a run that never settles
)

type item struct {
	owner      int32 // member holding a claim on it, -1 for none
	label      int32 // member shown on an unowned segment (assigned but down), -1 for none
	lastOwner  int32
	state      uint8
	exists     bool
	deleted    bool // a Connect task removed by set_tasks, still to be stopped
	revoked    bool // the last stop was a revocation (for wasted moves)
	since      int64
	pauseStart int64
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

type member struct {
	idx           int32
	name          string
	up            bool
	stopping      bool // shutting down: takes no new work
	inc           int  // incarnation: events scheduled for an older process are ignored
	phase         int64
	held          []int32 // items claimed, lazily compacted
	heldDirty     bool    // some item in held was released since the last compaction
	heldShared    bool    // held[:len] is referenced elsewhere: never rewrite it in place
	pollBusyUntil int64
	ver           uint64 // bumped whenever the set of items m holds changes
	// heldBatch is the batch that exactly the items of held (as last compacted) followed then,
	// or -1; with heldGen it spares revokeItems a check of every item.
	heldBatch int32
	heldGen   uint32
	entry     *entry  // classic: the coordinator's entry for this process
	k         *kentry // KIP-848: the current member id
}

// event is pointer-free (the closure sits in sim.fns), so sifting the heap needs no write barriers.
type event struct {
	at  int64
	seq uint64
	fn  int32 // index into sim.fns
}

// evHeap is a binary min-heap of events by (at, seq), typed to spare interface calls.
type evHeap []event

func (h evHeap) less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}

func (h *evHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

// pop removes the earliest event; the caller checks the heap is not empty.
func (h *evHeap) pop() event {
	q := *h
	top := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q[n] = event{}
	q = q[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && q.less(c+1, c) {
			c++
		}
		if !q.less(c, i) {
			break
		}
		q[i], q[c] = q[c], q[i]
		i = c
	}
	*h = q
	return top
}

type timings struct{ session, hb, reb, initDelay, schedDelay, revoke, start, rpc int64 }

type sim struct {
	sc      Scenario
	lim     Limits
	steps   int64 // work done so far (see Limits.MaxSteps)
	nmarks  int   // event markers recorded
	over    error // the budget the run went past, if any: Run stops at the next step
	cfg     timings
	now     int64
	q       evHeap
	fns     []func() // pending events' closures
	freeFn  []int32  // unused slots in fns
	seq     uint64
	members []*member
	byName  map[string]*member
	items   []item
	info    []itemInfo
	names   []string
	groups  []group
	groupOf map[string]int
	segs    [][]seg
	nsegs   int
	res     *Result
	rng     uint64
	stamp   uint32
	stamps  []uint32 // per item scratch marks, apart from items to keep scans dense
	world   uint64   // bumped whenever items appear, revive or die
	ranks   []int32  // member index -> position in name order (nil: recompute)
	bat     []int32  // item -> the batch it follows, or -1
	batches []batch
	freeB   []int32 // unused batches

	downtime, maxPause  int64
	moved, wasted, viol int
	notProcessing       int
	liveCount           int // items that exist and are not being removed
	stableAt            int64
	firstEvent          int64
	roundItems          int
	raw                 []rawRound
	roundsCut           bool  // later rounds lost their item lists (size cap)
	segStop             int64 // when timeline recording stopped (size cap), or -1

	classic *classic
	k848    *kip848
}

// Run simulates the scenario. It is deterministic for a scenario and seed; ctx and lim's
// budgets bound the work and what is recorded (an error wrapping ErrBudget).
func Run(ctx context.Context, sc Scenario, lim Limits) (res *Result, err error) {
	sc = sc.WithDefaults()
	if err := sc.Validate(lim); err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("simulation failed (internal error): %v", r)
		}
	}()
	s := newSim(sc, lim)
	stepCap := int64(maxSteps)
	if lim.MaxSteps > 0 {
		stepCap = lim.MaxSteps
	}
	for n := 0; len(s.q) > 0; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %w", ErrBudget, ctx.Err())
		}
		if s.steps++; s.steps > stepCap {
			return nil, fmt.Errorf("%w: needs more than %d simulation steps: shorten duration_ms or use fewer members, partitions or events", ErrBudget, stepCap)
		}
		if s.over != nil {
			return nil, s.over
		}
		e := s.q.pop()
		if e.at > sc.DurationMS {
			break
		}
		s.now = e.at
		fn := s.fns[e.fn]
		s.fns[e.fn] = nil
		s.freeFn = append(s.freeFn, e.fn)
		fn()
	}
	if s.over != nil {
		return nil, s.over
	}
	s.now = sc.DurationMS
	return s.finish(), nil
}

// overBudget stops the run at its next step with an error naming the budget and what to shrink.
func (s *sim) overBudget(format string, a ...any) {
	if s.over == nil {
		s.over = fmt.Errorf("%w: "+format, append([]any{ErrBudget}, a...)...)
	}
}

func newSim(sc Scenario, lim Limits) *sim {
	c := sc.Config
	s := &sim{
		sc:         sc,
		lim:        lim,
		cfg:        timings{*c.SessionTimeoutMS, *c.HeartbeatIntervalMS, *c.RebalanceTimeoutMS, *c.InitialRebalanceDelayMS, *c.ScheduledRebalanceMaxDelayMS, *c.RevokeMS, *c.StartMS, *c.RPCMS},
		byName:     map[string]*member{},
		groupOf:    map[string]int{},
		res:        &Result{DurationMS: sc.DurationMS, Rounds: []Round{}, Events: []EventMark{}},
		rng:        uint64(sc.Seed)*0x9E3779B97F4A7C15 + 1,
		firstEvent: -1,
		segStop:    -1,
		stableAt:   0,
	}
	s.segs = [][]seg{}
	gs := sc.Topics
	if sc.Kind == "connect" {
		gs = sc.Connectors
	}
	for _, name := range sortedKeys(gs) {
		s.groupOf[name] = len(s.groups)
		s.groups = append(s.groups, group{name: name})
		if sc.Kind == "connect" {
			s.addItem(len(s.groups)-1, -1)
		}
		s.growGroup(len(s.groups)-1, gs[name])
	}
	for _, n := range sc.Members {
		s.member(n)
	}
	// Scenario members are present and stable at t = 0.
	for _, n := range sc.Members {
		s.byName[n].up = true
	}
	switch {
	case sc.Kind == "consumer" && sc.Protocol == "consumer":
		s.k848 = newKIP848(s)
	default:
		s.classic = newClassic(s)
	}
	for i := range sc.Events {
		ev := sc.Events[i]
		s.at(ev.AtMS, func() { s.scenarioEvent(ev) })
		if s.firstEvent < 0 || ev.AtMS < s.firstEvent {
			s.firstEvent = ev.AtMS
		}
	}
	return s
}

// member returns (creating) the member with this name.
func (s *sim) member(name string) *member {
	if m, ok := s.byName[name]; ok {
		return m
	}
	m := &member{idx: int32(len(s.members)), name: name, heldBatch: -1}
	m.phase = int64(s.rand() % uint64(s.cfg.hb))
	s.members = append(s.members, m)
	s.byName[name] = m
	s.ranks = nil
	return m
}

// rank orders members by name with an integer compare (names are unique per member).
func (s *sim) rank(m *member) int32 {
	if s.ranks == nil {
		order := make([]int32, len(s.members))
		for i := range order {
			order[i] = int32(i)
		}
		sort.Slice(order, func(a, b int) bool { return s.members[order[a]].name < s.members[order[b]].name })
		s.ranks = make([]int32, len(order))
		for r, i := range order {
			s.ranks[i] = int32(r)
		}
	}
	return s.ranks[m.idx]
}

// rand is splitmix64: the only source of variation, seeded by the scenario.
func (s *sim) rand() uint64 {
	s.rng += 0x9E3779B97F4A7C15 // splitmix64 step
	z := s.rng
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func (s *sim) at(t int64, fn func()) {
	t = max(t, s.now)
	s.seq++
	var slot int32
	if n := len(s.freeFn); n > 0 {
		slot, s.freeFn = s.freeFn[n-1], s.freeFn[:n-1]
		s.fns[slot] = fn
	} else {
		slot = int32(len(s.fns))
		s.fns = append(s.fns, fn)
	}
	s.q.push(event{at: t, seq: s.seq, fn: slot})
}

func (s *sim) after(d int64, fn func()) { s.at(s.now+d, fn) }

// nextTick is m's first heartbeat at or after t; lastTick its last one at or before t.
func (s *sim) nextTick(m *member, t int64) int64 {
	hb := s.cfg.hb
	if t <= m.phase {
		return m.phase
	}
	return m.phase + (t-m.phase+hb-1)/hb*hb
}

func (s *sim) lastTick(m *member, t int64) int64 {
	if t < m.phase {
		return t
	}
	return m.phase + (t-m.phase)/s.cfg.hb*s.cfg.hb
}

func (s *sim) addItem(g int, part int) int32 {
	idx := int32(len(s.items))
	name := s.groups[g].name
	if part >= 0 {
		name = fmt.Sprintf("%s-%d", name, part)
	}
	s.items = append(s.items, item{owner: -1, label: -1, exists: true, since: s.now, pauseStart: s.now, lastOwner: -1})
	s.info = append(s.info, itemInfo{group: int32(g), part: int32(part), born: s.now, died: -1})
	s.names = append(s.names, name)
	s.stamps = append(s.stamps, 0)
	s.bat = append(s.bat, -1)
	s.segs = append(s.segs, nil)
	s.recordSeg(idx)
	s.groups[g].items = append(s.groups[g].items, idx)
	s.world++
	s.notProcessing++
	s.liveCount++
	return idx
}

// growGroup makes the group have n partitions (tasks), creating or reviving items.
func (s *sim) growGroup(g, n int) {
	base := 0
	if s.sc.Kind == "connect" {
		base = 1
	}
	cur := len(s.groups[g].items) - base
	for p := 0; p < cur && p < n; p++ {
		it := s.groups[g].items[base+p]
		if !s.items[it].exists || s.items[it].deleted {
			s.revive(it)
		}
	}
	for p := cur; p < n; p++ {
		s.addItem(g, p)
	}
	for p := n; p < cur; p++ {
		it := s.groups[g].items[base+p]
		if s.items[it].exists && !s.items[it].deleted {
			s.items[it].deleted = true
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
	x.pauseStart, x.since = s.now, s.now
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
		s.addPause(s.now - x.pauseStart)
		s.notProcessing--
	}
	if x.owner >= 0 {
		s.members[x.owner].heldDirty = true
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
			s.members[x.owner].heldDirty = true
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
		x.pauseStart = s.now
		s.notProcessing++
	} else if x.state != stProcessing && st == stProcessing {
		s.addPause(s.now - x.pauseStart)
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

func (s *sim) recordSeg(it int32) {
	x := &s.items[it]
	who, label, st := x.owner, x.label, x.state
	if b := s.bat[it]; b >= 0 {
		B := &s.batches[b]
		who, label, st = B.owner, B.label, B.state
	}
	if st == stUnowned {
		who = label
	}
	s.appendSeg(it, seg{from: s.now, owner: who, state: st})
}

func (s *sim) appendSeg(it int32, sg seg) {
	if s.segStop >= 0 {
		return
	}
	l := s.segs[it]
	if n := len(l); n > 0 && l[n-1].from == sg.from {
		l = l[:n-1]
		s.nsegs--
	}
	if n := len(l); n > 0 && l[n-1].state == sg.state && l[n-1].owner == sg.owner {
		s.segs[it] = l
		return
	}
	if s.nsegs >= maxSegments {
		s.segStop = s.now
		return
	}
	s.segs[it] = append(l, sg)
	s.nsegs++
	if s.lim.MaxSegments > 0 && s.nsegs+s.nmarks > s.lim.MaxSegments {
		s.overBudget("records more than %d timeline segments: use fewer members, partitions or events, or a shorter duration_ms", s.lim.MaxSegments)
	}
}

// heldList compacts and returns the items m holds a claim on.
func (s *sim) heldList(m *member) []int32 {
	if !m.heldDirty {
		return m.held
	}
	m.heldDirty = false
	s.stamp++
	out := m.held[:0]
	if m.heldShared {
		out, m.heldShared = make([]int32, 0, len(m.held)), false
	}
	one := int32(-2) // the batch every kept item follows so far; -1 when they differ
	for _, it := range m.held {
		// An item following a batch exists (kill detaches), so its batch alone decides.
		var mine bool
		b := s.bat[it]
		if b >= 0 {
			mine = s.batches[b].owner == m.idx
		} else {
			x := &s.items[it]
			mine = x.owner == m.idx && x.exists
		}
		if mine && s.stamps[it] != s.stamp {
			s.stamps[it] = s.stamp
			out = append(out, it)
			switch {
			case one == -2:
				one = b
			case one != b:
				one = -1
			}
		}
	}
	m.held = out
	m.heldBatch = -1
	if one >= 0 && s.batches[one].n == int32(len(out)) {
		m.heldBatch, m.heldGen = one, s.batches[one].gen
	}
	return out
}

// appendShared appends l to dst, or returns l itself (capped, so later appends copy) when dst
// is empty; l must never be modified afterwards.
func appendShared(dst, l []int32) []int32 {
	if len(dst) == 0 {
		return l[:len(l):len(l)]
	}
	return append(dst, l...)
}

// startItems gives items to m: starting for start_ms, then processing.
func (s *sim) startItems(m *member, its []int32) {
	if len(its) == 0 || !m.up || m.stopping {
		return
	}
	s.steps += int64(len(its))
	t0, inc := s.now, m.inc
	st := stStarting
	if s.cfg.start == 0 {
		st = stProcessing
	}
	started := its[:0:0]
	gained := false
	m.held = slices.Grow(m.held, len(its))
	nb := s.newBatch(m.idx, st)
	B := &s.batches[nb]
	for i, it := range its {
		x := &s.items[it]
		if !x.exists || x.deleted {
			continue
		}
		// The item's current owner, state and revoked flag, from its batch if it follows one
		// (leaving it: this is detach, minus fields about to be overwritten).
		owner, state, revoked := x.owner, x.state, x.revoked
		if ob := s.bat[it]; ob >= 0 {
			O := &s.batches[ob]
			if O.owner == m.idx {
				continue
			}
			owner, state, revoked = O.owner, O.state, O.revoked
			if O.psCommon {
				x.pauseStart = O.pauseStart
			} else {
				O.sumOK = false
			}
			if O.n--; O.n == 0 {
				s.freeB = append(s.freeB, ob) // never nb: nothing follows it yet but this loop's items
			}
		} else if owner == m.idx {
			continue
		}
		if owner >= 0 {
			s.viol++
			s.invariant("at %d ms %s is given to %s while %s still owns it", s.now, s.names[it], m.name, s.members[owner].name)
			s.members[owner].heldDirty = true
			s.members[owner].ver++
		}
		gained = true
		if x.lastOwner >= 0 && x.lastOwner != m.idx {
			s.moved++
		} else if x.lastOwner == m.idx && revoked {
			s.wasted++
		}
		x.lastOwner, x.revoked = m.idx, false
		// move, inlined: the hot path of every round.
		if state == stProcessing && st != stProcessing {
			x.pauseStart = s.now
			s.notProcessing++
		} else if state != stProcessing && st == stProcessing {
			s.addPause(s.now - x.pauseStart)
			s.notProcessing--
		}
		x.state, x.owner, x.label, x.since = st, m.idx, -1, s.now
		s.bat[it] = -1
		if s.segStop < 0 {
			s.recordSeg(it)
		}
		if s.notProcessing == 0 {
			s.checkStable()
		}
		// Follow the new batch (already in the state just set).
		s.bat[it] = nb
		B.n++
		B.sumPS += x.pauseStart
		B.minPS = min(B.minPS, x.pauseStart)
		m.held = append(m.held, it)
		if len(started) == i {
			started = its[: i+1 : i+1] // all started so far: share the caller's slice (capped, so appends copy)
		} else {
			started = append(started, it)
		}
	}
	if gained {
		m.ver++
	}
	b := nb
	if B.n == 0 {
		s.freeB = append(s.freeB, nb)
	}
	if st == stStarting && len(started) > 0 {
		gen := s.batches[b].gen
		s.after(s.cfg.start, func() {
			if m.inc != inc {
				return
			}
			if B := &s.batches[b]; s.batchIs(b, gen, int32(len(started)), stStarting, t0, m.idx) && B.sumOK {
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
		})
	}
}

// revokeItems stops items on m (commit + callback, revoke_ms) and then calls done.
func (s *sim) revokeItems(m *member, its []int32, byRebalance bool, done func()) {
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
	finish := func() {
		if m.inc != inc {
			return
		}
		released := false
		if b >= 0 && s.batchIs(b, gen, int32(len(stopping)), stRevoking, t0, m.idx) && s.sc.Kind == "consumer" {
			B := &s.batches[b]
			// The whole batch is released (consumers never delete partitions).
			B.revoked = byRebalance
			B.state, B.owner, B.label, B.since = stUnowned, -1, -1, s.now
			s.batchMoved(stopping)
			released = true
			stopping = nil
		}
		for _, it := range stopping {
			s.detach(it)
			x := &s.items[it]
			if x.owner == m.idx && x.state == stRevoking && x.since == t0 {
				x.revoked = byRebalance
				if x.exists {
					s.move(it, x, stUnowned, -1, -1)
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
		if done != nil {
			done()
		}
	}
	if s.cfg.revoke == 0 {
		finish()
		return
	}
	s.after(s.cfg.revoke, finish)
}

// dropItems loses m's items at once (crash, fenced). label keeps them shown as m's.
func (s *sim) dropItems(m *member, label int32) {
	for _, it := range s.heldList(m) {
		s.detach(it)
		s.items[it].revoked = false
		s.setState(it, stUnowned, -1, label)
		if s.items[it].deleted {
			s.kill(it)
		}
	}
	m.held, m.heldShared = nil, false
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

func (s *sim) invariant(format string, a ...any) {
	if len(s.res.InvariantFailures) < 100 {
		s.res.InvariantFailures = append(s.res.InvariantFailures, fmt.Sprintf(format, a...))
	}
}

func (s *sim) mark(t string, m string) {
	if len(s.res.Events) < 100_000 {
		s.res.Events = append(s.res.Events, EventMark{AtMS: s.now, Type: t, Member: m})
		s.nmarks++
		if s.lim.MaxSegments > 0 && s.nsegs+s.nmarks > s.lim.MaxSegments {
			s.overBudget("records more than %d timeline segments and event markers: use fewer members or events", s.lim.MaxSegments)
		}
	}
}

// checkStable notes the moment the group is settled: stable and every item processing.
func (s *sim) checkStable() {
	if s.notProcessing != 0 {
		return
	}
	if s.classic != nil && !s.classic.settled() {
		return
	}
	if s.k848 != nil && !s.k848.settled() {
		return
	}
	s.stableAt = s.now
}

func (s *sim) itemsOf(its []int32) []string {
	out := make([]string, 0, len(its))
	sorted := append([]int32(nil), its...)
	s.sortItems(sorted)
	for _, it := range sorted {
		out = append(out, s.names[it])
	}
	return out
}

// less orders items canonically: by group name, then connector before its tasks, then number.
func (s *sim) less(a, b int32) bool {
	x, y := &s.info[a], &s.info[b]
	if x.group != y.group {
		return x.group < y.group
	}
	return x.part < y.part
}

// round records a finished round; item lists are dropped once the recording cap is reached.
func (s *sim) round(r Round, assign, revoked, added map[int32][]int32) {
	n := 0
	for _, l := range assign {
		n += len(l)
	}
	for _, l := range revoked {
		n += len(l)
	}
	for _, l := range added {
		n += len(l)
	}
	// A round's bookkeeping touches every live item and member.
	s.steps += int64(s.liveCount + len(s.members))
	if s.lim.MaxRounds > 0 && len(s.res.Rounds) >= s.lim.MaxRounds {
		s.overBudget("records more than %d rounds: use fewer events or members, or a shorter duration_ms", s.lim.MaxRounds)
	}
	if s.lim.MaxRoundItems > 0 && s.roundItems+n > s.lim.MaxRoundItems {
		s.overBudget("records more than %d item names in its rounds' assignments: use fewer partitions or events", s.lim.MaxRoundItems)
	}
	raw := rawRound{}
	if assign == nil || s.roundItems+n > maxRoundItems {
		s.roundsCut = true
	} else {
		// Item indices now, names at the end: keeps the live heap free of strings.
		s.roundItems += n
		raw = rawRound{assign, revoked, added, true}
	}
	s.res.Rounds = append(s.res.Rounds, r)
	s.raw = append(s.raw, raw)
}

type rawRound struct {
	assign, revoked, added map[int32][]int32
	ok                     bool
}

func (s *sim) namedLists(dst map[string][]string, src map[int32][]int32, keepEmpty bool) {
	for m, l := range src {
		if len(l) > 0 || keepEmpty {
			dst[s.members[m].name] = append(dst[s.members[m].name], s.itemsOf(l)...)
		}
	}
}

func (s *sim) finish() *Result {
	r := s.res
	end := s.sc.DurationMS
	for i, raw := range s.raw {
		if !raw.ok {
			continue
		}
		rd := &r.Rounds[i]
		rd.Assignment, rd.Revoked, rd.Added = map[string][]string{}, map[string][]string{}, map[string][]string{}
		s.namedLists(rd.Assignment, raw.assign, true)
		s.namedLists(rd.Revoked, raw.revoked, false)
		s.namedLists(rd.Added, raw.added, false)
	}
	s.raw = nil
	r.Truncated = s.roundsCut || s.segStop >= 0
	if s.segStop >= 0 {
		r.TruncatedAtMS = s.segStop
	}
	var total int64
	for i := range s.items {
		s.detach(int32(i))
		x := &s.items[i]
		total += s.info[i].lived
		if x.exists {
			total += end - s.info[i].born
			if x.state != stProcessing {
				s.addPause(end - x.pauseStart)
			}
		}
	}
	m := &r.Metrics
	m.Rebalances = len(r.Rounds)
	for _, rd := range r.Rounds {
		if rd.StopTheWorld {
			m.StopTheWorldRebalances++
		}
	}
	m.DowntimeItemMS, m.MaxPauseMS = s.downtime, s.maxPause
	m.Availability = 1
	if total > 0 {
		m.Availability = float64(total-s.downtime) / float64(total)
	}
	m.Moved, m.WastedMoves, m.Violations = s.moved, s.wasted, s.viol
	switch {
	case s.firstEvent < 0:
		m.TimeToStableMS = 0
	case s.notProcessing > 0 || s.stableAt < s.firstEvent && s.lastChange() > s.firstEvent:
		m.TimeToStableMS = -1
	default:
		m.TimeToStableMS = max(0, s.stableAt-s.firstEvent)
	}
	if s.classic != nil && !s.classic.settled() {
		m.TimeToStableMS = -1
	}
	for _, mb := range s.members {
		r.Members = append(r.Members, mb.name)
	}
	r.Items = append([]string(nil), s.names...)
	order := make([]int32, len(s.items))
	for i := range order {
		order[i] = int32(i)
	}
	if !sort.SliceIsSorted(order, func(i, j int) bool { return s.less(order[i], order[j]) }) {
		sort.SliceStable(order, func(i, j int) bool { return s.less(order[i], order[j]) })
	}
	r.Items = r.Items[:0]
	stop := end
	if s.segStop >= 0 {
		stop = s.segStop
	}
	r.Timeline = make([]ItemTimeline, 0, len(order))
	for _, it := range order {
		r.Items = append(r.Items, s.names[it])
		l := s.segs[it]
		segs := make([]Segment, 0, len(l))
		for j, sg := range l {
			if sg.state == 255 {
				continue
			}
			to := stop
			if j+1 < len(l) {
				to = l[j+1].from
			}
			if to > stop {
				to = stop
			}
			if to <= sg.from {
				continue
			}
			owner := ""
			if sg.owner >= 0 {
				owner = s.members[sg.owner].name
			}
			segs = append(segs, Segment{FromMS: sg.from, ToMS: to, State: stateNames[sg.state], Owner: owner})
		}
		s.segs[it] = nil // converted: the collector may take it back while the rest is built
		r.Timeline = append(r.Timeline, ItemTimeline{Item: s.names[it], Segments: segs})
	}
	return r
}

// lastChange is the end of the last round, a proxy for the last disturbance.
func (s *sim) lastChange() int64 {
	if n := len(s.res.Rounds); n > 0 {
		return s.res.Rounds[n-1].EndMS
	}
	return 0
}

// scenarioEvent applies one scenario event at s.now.
func (s *sim) scenarioEvent(ev Event) {
	switch ev.Type {
	case "join":
		s.mark("join", ev.Member)
		s.startMember(s.member(ev.Member))
	case "leave":
		s.mark("leave", ev.Member)
		s.stopMember(s.member(ev.Member), true, -1)
	case "crash":
		s.mark("crash", ev.Member)
		s.crashMember(s.member(ev.Member), -1)
	case "restart":
		s.mark("restart", ev.Member)
		s.stopMember(s.member(ev.Member), true, ev.DownMS)
	case "rolling_restart":
		k := int64(0)
		for _, m := range s.members {
			if !m.up {
				continue
			}
			m := m
			s.at(s.now+k*ev.IntervalMS, func() {
				s.mark("restart", m.name)
				s.stopMember(m, true, ev.DownMS)
			})
			k++
		}
	case "flap":
		m := s.member(ev.Member)
		for k := 0; k < ev.Count; k++ {
			s.at(s.now+int64(k)*ev.IntervalMS, func() {
				s.mark("crash", m.name)
				s.crashMember(m, ev.DownMS)
			})
		}
	case "slow_poll":
		s.mark("slow_poll", ev.Member)
		s.slowPoll(s.member(ev.Member), ev.DurationMS)
	case "add_partitions":
		s.mark("add_partitions", "")
		g := s.groupOf[ev.Topic]
		s.growGroup(g, ev.Partitions)
		s.configChanged(fmt.Sprintf("%s grows to %d partitions", ev.Topic, ev.Partitions))
	case "set_tasks":
		s.mark("set_tasks", "")
		s.growGroup(s.groupOf[ev.Connector], ev.Tasks)
		s.configChanged(fmt.Sprintf("%s now has %d tasks", ev.Connector, ev.Tasks))
	}
}

// restartAfter brings m back after down ms (when down >= 0).
func (s *sim) restartAfter(m *member, down int64) {
	if down < 0 {
		return
	}
	s.after(down, func() {
		if m.up {
			return
		}
		s.mark("rejoin", m.name)
		s.startMember(m)
	})
}

func (s *sim) startMember(m *member) {
	if m.up {
		return
	}
	m.up, m.stopping, m.pollBusyUntil = true, false, 0
	m.inc++
	if s.classic != nil {
		s.classic.memberStarted(m)
	} else {
		s.k848.memberStarted(m)
	}
}

// stopMember shuts m down gracefully (commit, callback; LeaveGroup unless static).
func (s *sim) stopMember(m *member, graceful bool, down int64) {
	if !m.up || m.stopping {
		return
	}
	m.stopping = true
	if s.classic != nil {
		s.classic.memberStopping(m, down)
	} else {
		s.k848.memberStopping(m, down)
	}
}

func (s *sim) crashMember(m *member, down int64) {
	if !m.up {
		return
	}
	m.up = false
	m.inc++
	s.dropItems(m, m.idx)
	if s.classic != nil {
		s.classic.memberCrashed(m)
	} else {
		s.k848.memberCrashed(m)
	}
	s.restartAfter(m, down)
}

func (s *sim) slowPoll(m *member, d int64) {
	if !m.up {
		return
	}
	m.pollBusyUntil = s.now + d
	if d <= s.cfg.reb {
		return
	}
	inc := m.inc
	s.after(s.cfg.reb, func() {
		if m.inc != inc || !m.up {
			return
		}
		// max.poll.interval.ms expired: the client gives up its membership.
		s.dropItems(m, -1)
		if s.classic != nil {
			s.classic.pollTimeout(m)
		} else {
			s.k848.pollTimeout(m)
		}
		s.at(m.pollBusyUntil, func() {
			if m.inc != inc || !m.up {
				return
			}
			s.mark("rejoin", m.name)
			if s.classic != nil {
				s.classic.pollReturned(m)
			} else {
				s.k848.pollReturned(m)
			}
		})
	})
}

func (s *sim) configChanged(why string) {
	if s.classic != nil {
		s.classic.configChanged(why)
	} else {
		s.k848.configChanged(why)
	}
}
