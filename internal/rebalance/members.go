package rebalance

import (
	"fmt"
	"sort"
)

// member's fields that every round reads for every member come first, in one cache line.
type member struct {
	entry *entry // classic: the coordinator's entry for this process
	idx   int32
	// heldBatch is the batch that exactly the items of held (as last compacted) followed then,
	// or -1; with heldGen it spares revokeItems a check of every item.
	heldBatch  int32
	heldGen    uint32
	up         bool
	stopping   bool // shutting down: takes no new work
	heldDirty  bool // some item in held was released since the last compaction
	heldShared bool // held[:len] is referenced elsewhere: never rewrite it in place
	goneLost   bool // some release since then is not in gone
	// synced: phase was last set by a JoinGroup response (classic), so the member's last
	// contact before its first heartbeat is that response.
	synced        bool
	inc           int // incarnation: events scheduled for an older process are ignored
	phase         int64
	recGen        int // classic: the generation whose SyncGroup last counted its list
	pollBusyUntil int64
	// The member's own costs (config, or its per_member override); pollAt is when the poll
	// that runs its pending KIP-848 callbacks comes (0: none pending).
	proc, revoke, start, pollAt int64

	held []int32 // items claimed, lazily compacted
	gone []int32 // the items released since the last compaction (see release)
	k    *kentry // KIP-848: the current member id
	ver  uint64  // bumped whenever the set of items m holds changes
	name string
	// assignors is the classic consumer's assignor list; next the list it restarts with.
	assignors, next []assignor
	commitBase      int64 // auto-commits fall at commitBase + k * auto_commit_interval_ms
}

// member returns (creating) the member with this name.
func (s *sim) member(name string) *member {
	if m, ok := s.byName[name]; ok {
		return m
	}
	m := &member{idx: int32(len(s.members)), name: name, heldBatch: -1, proc: s.cfg.proc, revoke: s.cfg.revoke, start: s.cfg.start}
	if o, ok := s.sc.Config.PerMember[name]; ok {
		m.proc = derefOr(o.ProcessingMS, m.proc)
		m.revoke = derefOr(o.RevokeMS, m.revoke)
		m.start = derefOr(o.StartMS, m.start)
	}
	m.phase = int64(s.rand() % uint64(s.cfg.hb))
	if s.kind == kindConsumer && s.proto != protoConsumer {
		list, ok := s.sc.Assignors[name]
		if !ok {
			list = []string{s.sc.Assignor}
		}
		m.assignors = s.internAssignors(list)
	}
	if iv := s.cfg.autoCommit; iv > 0 {
		// Members at t = 0 started earlier: their commit ticks get a phase of their own, from a
		// hash so that the heartbeat phases drawn from s.rng stay as they were.
		m.commitBase = int64(mix(uint64(s.sc.Seed)^uint64(m.idx+1)*0xA24BAED4963EE407) % uint64(iv))
	}
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
		if m.synced {
			return m.phase - s.cfg.hb
		}
		return t
	}
	return m.phase + (t-m.phase)/s.cfg.hb*s.cfg.hb
}

// resync restarts m's heartbeat timer at t (a JoinGroup response): heartbeats follow every hb.
func (s *sim) resync(m *member, t int64) {
	m.phase, m.synced = t+s.cfg.hb, true
}

// scenarioEvent applies one scenario event at s.now.
func (s *sim) scenarioEvent(ev Event) {
	switch parseEvType(ev.Type) {
	case evJoin:
		s.mark("join", ev.Member)
		m := s.member(ev.Member)
		if ev.Assignors != nil {
			m.next = s.internAssignors(ev.Assignors)
		}
		s.startMember(m)
	case evLeave:
		s.mark("leave", ev.Member)
		s.stopMember(s.member(ev.Member), -1)
	case evCrash:
		s.mark("crash", ev.Member)
		s.crashMember(s.member(ev.Member), -1)
	case evRestart:
		s.mark("restart", ev.Member)
		m := s.member(ev.Member)
		if ev.Assignors != nil && m.up && !m.stopping {
			m.next = s.internAssignors(ev.Assignors)
		}
		s.stopMember(m, ev.DownMS)
	case evRollingRestart:
		k := int64(0)
		for _, m := range s.members {
			if !m.up {
				continue
			}
			m := m
			s.at(s.now+k*ev.IntervalMS, func() {
				s.mark("restart", m.name)
				if ev.Assignors != nil && m.up && !m.stopping {
					m.next = s.internAssignors(ev.Assignors)
				}
				s.stopMember(m, ev.DownMS)
			})
			k++
		}
	case evFlap:
		m := s.member(ev.Member)
		for k := 0; k < ev.Count; k++ {
			s.at(s.now+int64(k)*ev.IntervalMS, func() {
				s.mark("crash", m.name)
				s.crashMember(m, ev.DownMS)
			})
		}
	case evSlowPoll:
		s.mark("slow_poll", ev.Member)
		s.slowPoll(s.member(ev.Member), ev.DurationMS)
	case evAddPartitions:
		s.mark("add_partitions", "")
		g := s.groupOf[ev.Topic]
		s.growGroup(g, ev.Partitions)
		s.configChanged(fmt.Sprintf("%s grows to %d partitions", ev.Topic, ev.Partitions))
	case evSetTasks:
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
	m.up, m.stopping, m.pollBusyUntil, m.pollAt = true, false, 0, 0
	m.inc++
	m.commitBase = s.now
	if m.next != nil {
		m.assignors, m.next = m.next, nil
	}
	s.group.memberStarted(m)
}

// stopMember shuts m down gracefully (commit, callback; LeaveGroup unless static).
func (s *sim) stopMember(m *member, down int64) {
	if !m.up || m.stopping {
		return
	}
	m.stopping = true
	s.group.memberStopping(m, down)
}

func (s *sim) crashMember(m *member, down int64) {
	if !m.up {
		return
	}
	m.up = false
	m.inc++
	s.dropItems(m, m.idx)
	s.group.memberCrashed(m)
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
		s.group.pollTimeout(m)
		s.at(m.pollBusyUntil, func() {
			if m.inc != inc || !m.up {
				return
			}
			s.mark("rejoin", m.name)
			s.group.pollReturned(m)
		})
	})
}

func (s *sim) configChanged(why string) {
	s.group.configChanged(why)
}

func derefOr(p *int64, v int64) int64 {
	if p == nil {
		return v
	}
	return *p
}

// pollWait is how long m takes to reach its next poll, where a consumer runs its rebalance
// callbacks and sends its JoinGroup: 0 for a member with nothing to process or an instant poll
// loop; otherwise the rest of the batch it is on, its position in that batch drawn uniformly
// (from a hash of the seed, the member and a counter, so other draws stay as they were); and
// never before a stuck poll loop (slow_poll) returns.
func (s *sim) pollWait(m *member) int64 {
	w := max(m.pollBusyUntil-s.now, 0)
	if m.proc <= 0 || s.kind != kindConsumer || len(s.heldList(m)) == 0 {
		return w
	}
	s.polls++
	h := mix(uint64(s.sc.Seed)*0xD1B54A32D192ED03 ^ uint64(m.idx+1)*0x8CB92BA72F3D8DD7 ^ s.polls)
	return max(w, 1+int64(h%uint64(m.proc)))
}

// pollAt is when m's pending callbacks run: its next poll, drawn once per pending wait (the
// first call draws it, the call at that time clears it and returns it).
func (s *sim) pollAt(m *member) int64 {
	if m.pollAt > 0 {
		at := m.pollAt
		if at <= s.now {
			m.pollAt = 0
		}
		return at
	}
	if w := s.pollWait(m); w > 0 {
		m.pollAt = s.now + w
		return m.pollAt
	}
	return s.now
}
