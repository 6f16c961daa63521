package rebalance

import (
	"context"
	"fmt"
	"maps"
	"slices"
)

// Recording caps keep memory bounded on huge runs; metrics stay exact beyond them.
const (
	maxSegments   = 1_000_000
	maxRoundItems = 2_000_000
	maxSteps      = 2_000_000_000 // a backstop against a run that never settles
)

type timings struct {
	session, hb, reb, initDelay, schedDelay, revoke, start, rpc int64
	autoCommit, rate, proc                                      int64 // consumers only
}

type sim struct {
	sc        Scenario
	lim       Limits
	steps     int64 // work done so far (see Limits.MaxSteps)
	nmarks    int   // event markers recorded
	over      error // the budget the run went past, if any: Run stops at the next step
	cfg       timings
	kind      kind
	proto     protocol
	now       int64
	q         queue
	members   []*member
	byName    map[string]*member
	items     []item
	info      []itemInfo
	names     []string
	groups    []group
	groupOf   map[string]int
	segs      [][]seg
	nsegs     int
	res       *Result
	rng       uint64
	polls     uint64 // pollWait's draws so far
	stamp     uint32
	stamps    []uint32 // per item scratch marks, apart from items to keep scans dense
	ps        []int64  // per item: when its current pause began (read while not processing)
	deletions bool     // some item was ever marked deleted (Connect tasks)
	world     uint64   // bumped whenever items appear, revive or die
	ranks     []int32  // member index -> position in name order (nil: recompute)
	bat       []int32  // item -> the batch it follows, or -1
	batches   []batch
	freeB     []int32    // unused batches
	waits     []itemWait // waits.go
	freeWaits []int32    // unused slots of waits

	keepBuf, addBuf [][]int32 // stickyLists's scratch
	gave            []int32   // stickyLists's last call: (item, member) pairs given up, in order
	targetBuf       []int
	rankBuf         []uint64
	spanBuf         []int32 // giveExtra's
	sortBuf         []int32 // sortAsc's
	namesBuf        []int32 // itemsOf's
	freeBuf, itsBuf []int32 // stickyLists's
	cntBuf          []int32
	roomBuf         []int
	assignorLists   map[string][]assignor // internAssignors's
	claims          claims                // what orphans counted last

	downtime, maxPause  int64
	reprocMS            int64 // partition-milliseconds of records consumed but not committed when lost
	moved, wasted, viol int
	notProcessing       int
	liveCount           int // items that exist and are not being removed
	stableAt            int64
	firstEvent          int64
	roundItems          int
	raw                 []rawRound
	roundsCut           bool  // later rounds lost their item lists (size cap)
	segStop             int64 // when timeline recording stopped (size cap), or -1

	group groupProtocol // the coordinator and members' protocol: classic (consumer, Connect) or KIP-848
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
	for n := 0; s.q.len() > 0; n++ {
		if n&1023 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %w", ErrBudget, ctx.Err())
		}
		if s.steps++; s.steps > stepCap {
			return nil, fmt.Errorf("%w: needs more than %d simulation steps: shorten duration_ms or use fewer members, partitions or events", ErrBudget, stepCap)
		}
		if s.over != nil {
			return nil, s.over
		}
		at, a := s.q.pop()
		if at > sc.DurationMS {
			break // nothing reads the agenda after the run
		}
		s.now = at
		switch {
		case a.isClosure():
			s.q.take(a)()
		case a.kind() < actStarted:
			s.group.fire(a)
		default:
			s.endOf(a)
		}
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
		kind:       parseKind(sc.Kind),
		proto:      parseProtocol(sc.Protocol),
		cfg:        timings{*c.SessionTimeoutMS, *c.HeartbeatIntervalMS, *c.RebalanceTimeoutMS, *c.InitialRebalanceDelayMS, *c.ScheduledRebalanceMaxDelayMS, *c.RevokeMS, *c.StartMS, *c.RPCMS, deref(c.AutoCommitIntervalMS), deref(c.RecordsPerSec), deref(c.ProcessingMS)},
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
	if s.kind == kindConnect {
		gs = sc.Connectors
	}
	for _, name := range slices.Sorted(maps.Keys(gs)) {
		s.groupOf[name] = len(s.groups)
		s.groups = append(s.groups, group{name: name})
		if s.kind == kindConnect {
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
	if s.proto == protoConsumer {
		s.group = newKIP848(s)
	} else {
		s.group = newClassic(s)
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

// rand is splitmix64: the only source of variation, seeded by the scenario.
func (s *sim) rand() uint64 {
	s.rng += 0x9E3779B97F4A7C15 // splitmix64 step
	return mix(s.rng)
}

// mix is splitmix64's output function.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// at schedules fn at virtual time t (never in the past).
func (s *sim) at(t int64, fn func()) { s.q.push(max(t, s.now), s.q.closure(fn)) }

// after schedules fn d from now, through the queue's lane for d.
func (s *sim) after(d int64, fn func()) { s.q.pushAfter(d, max(s.now+d, s.now), s.q.closure(fn)) }

// atAct and afterAct are at and after for a typed act.
func (s *sim) atAct(t int64, a act)    { s.q.push(max(t, s.now), a) }
func (s *sim) afterAct(d int64, a act) { s.q.pushAfter(d, max(s.now+d, s.now), a) }
