package rebalance

import (
	"fmt"
	"sort"
)

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
	if len(l) == cap(l) && cap(l) < 8 {
		// Most items gather several segments: skip the small sizes append would go through.
		l = append(make([]seg, 0, 8), l...)
	}
	s.segs[it] = append(l, sg)
	s.nsegs++
	if s.lim.MaxSegments > 0 && s.nsegs+s.nmarks > s.lim.MaxSegments {
		s.overBudget("records more than %d timeline segments: use fewer members, partitions or events, or a shorter duration_ms", s.lim.MaxSegments)
	}
}

func (s *sim) invariant(format string, a ...any) {
	if len(s.res.InvariantFailures) < 100 {
		s.res.InvariantFailures = append(s.res.InvariantFailures, fmt.Sprintf(format, a...))
	}
}

func (s *sim) mark(t string, m string) { s.markReason(t, m, "") }

func (s *sim) markReason(t, m, reason string) {
	if len(s.res.Events) < 100_000 {
		s.res.Events = append(s.res.Events, EventMark{AtMS: s.now, Type: t, Member: m, Reason: reason})
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
	if s.group != nil && !s.group.settled() {
		return
	}
	s.stableAt = s.now
}

func (s *sim) itemsOf(its []int32) []string {
	out := make([]string, 0, len(its)) // not carved from arenas: that raised the peak RSS by ~20 MB
	sorted := append(s.namesBuf[:0], its...)
	s.sortItems(sorted)
	for _, it := range sorted {
		out = append(out, s.names[it])
	}
	s.namesBuf = sorted[:0]
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
// unrecorded counts items of the round that were left out of the lists (past the cap).
func (s *sim) round(r Round, assign, revoked, added map[int32][]int32, unrecorded int) {
	n := unrecorded
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
			// The names list itself when it is the first (an empty one stays nil, as before).
			if d := dst[s.members[m].name]; len(d) > 0 || len(l) == 0 {
				dst[s.members[m].name] = append(d, s.itemsOf(l)...)
			} else {
				dst[s.members[m].name] = s.itemsOf(l)
			}
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
				s.addPause(end - s.ps[i])
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
	m.ReprocessedRecords = s.reprocMS * s.cfg.rate / 1000
	switch {
	case s.firstEvent < 0:
		m.TimeToStableMS = 0
	case s.notProcessing > 0 || s.stableAt < s.firstEvent && s.lastChange() > s.firstEvent:
		m.TimeToStableMS = -1
	default:
		m.TimeToStableMS = max(0, s.stableAt-s.firstEvent)
	}
	if !s.group.settled() {
		m.TimeToStableMS = -1
	}
	for _, mb := range s.members {
		r.Members = append(r.Members, mb.name)
		if s.kind == kindConsumer {
			r.ProcessingMS = max(r.ProcessingMS, mb.proc)
		}
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
	// The items' segments are cut from a few big arrays (a list holds at most its recorded
	// ones), none bigger than what is left to place: a small run's Result, which the server
	// keeps with its figure, holds no 32k-segment array (1.5 MB) for a few hundred segments.
	var all []Segment
	left := 0
	for _, it := range order {
		left += len(s.segs[it])
	}
	for _, it := range order {
		r.Items = append(r.Items, s.names[it])
		l := s.segs[it]
		segs := carve(&all, len(l), left)
		left -= len(l)
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
	m.PausedItems, m.AllStoppedMS = pausedAndStopped(r.Timeline)
	return r
}

// carve returns an empty list (never nil) with room for n, cut from *arena, which gets a new
// array of 32,768 (or n, and at most left, what all the lists still to carve need) when it
// runs short: many small lists in a few allocations, made as they are needed (one array for
// all of them up front raised the peak, while everything they are converted from was held).
func carve[T any](arena *[]T, n, left int) []T {
	a := *arena
	if a == nil || cap(a)-len(a) < n {
		a = make([]T, 0, max(n, min(left, 1<<15)))
	}
	*arena = a[:len(a)+n]
	return a[len(a) : len(a) : len(a)+n]
}

// lastChange is the end of the last round, a proxy for the last disturbance.
func (s *sim) lastChange() int64 {
	if n := len(s.res.Rounds); n > 0 {
		return s.res.Rounds[n-1].EndMS
	}
	return 0
}
