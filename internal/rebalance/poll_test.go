package rebalance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// The production costs: processing_ms gates a consumer's rejoin and callbacks on its next poll.

// joinScenario is a group of 11 consumers over 48 partitions that a twelfth joins at 10 s.
func joinScenario(proto string, seed, proc, revoke, start int64) Scenario {
	var ms []string
	for i := 1; i <= 11; i++ {
		ms = append(ms, fmt.Sprintf("m%02d", i))
	}
	return Scenario{Kind: "consumer", Protocol: proto, Topics: map[string]int{"t": 48}, Members: ms,
		Config: Config{ProcessingMS: cfgp(proc), RevokeMS: cfgp(revoke), StartMS: cfgp(start)},
		Events: []Event{{AtMS: 10_000, Type: "join", Member: "m12"}}, DurationMS: 60_000, Seed: seed}
}

func median(xs []int64) int64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// roundSpan is how long the first round after t = 0 stayed open once a member had stopped
// work for it: from the first partition paused to SyncGroup.
func roundSpan(r *Result) int64 {
	for _, rd := range r.Rounds {
		if rd.StartMS > 0 {
			first := rd.EndMS
			for _, tl := range r.Timeline {
				for _, sg := range tl.Segments {
					if sg.State != StateProcessing && sg.FromMS >= rd.StartMS {
						first = min(first, sg.FromMS)
					}
				}
			}
			return rd.EndMS - first
		}
	}
	return -1
}

// An eager round completes only when its slowest member polls: with 2 s batches the join
// phase of twelve members stays open for most of a batch, while with an instant poll loop it
// closes within a heartbeat's network time.
func TestPollGatedRejoinHoldsEagerRoundOpen(t *testing.T) {
	var busy, idle []int64
	for seed := int64(1); seed <= 10; seed++ {
		busy = append(busy, roundSpan(run(t, joinScenario("eager", seed, 2000, 0, 0))))
		idle = append(idle, roundSpan(run(t, joinScenario("eager", seed, 0, 0, 0))))
	}
	if b, i := median(busy), median(idle); b < 1000 || i >= 100 {
		t.Fatalf("median eager round: %d ms with 2 s batches, %d ms with an instant poll loop; want >= 1000 and < 100", b, i)
	}
	for i := range busy {
		if busy[i] > 2000+100 {
			t.Errorf("seed %d: the round lasted %d ms, more than one batch (2000 ms) and the requests", i+1, busy[i])
		}
	}
}

// Eager members revoke at their own next poll, spread over the batch, not all at the heartbeat
// that told them: the first revocations start well before the last.
func TestPollGatedRevocationsSpreadOverTheBatch(t *testing.T) {
	r := run(t, joinScenario("eager", 3, 2000, 0, 0))
	first, last := int64(-1), int64(0)
	for _, tl := range r.Timeline {
		for _, sg := range tl.Segments {
			if sg.State != StateProcessing && sg.FromMS >= 10_000 {
				if first < 0 || sg.FromMS < first {
					first = sg.FromMS
				}
				last = max(last, sg.FromMS)
				break
			}
		}
	}
	if last-first < 500 {
		t.Fatalf("partitions stopped between %d and %d ms: want them spread over the 2 s batch", first, last)
	}
}

// The figure: an eager join of 12 members over 48 partitions with 2 s batches (commit
// 200 ms on revoke, 3 s warm-up) stops every partition at once for at least a second, and
// cooperative loses less in total.
func TestEagerJoinStopsTheWorldCooperativeLosesLess(t *testing.T) {
	var stopped, eagerDown, coopDown []int64
	for seed := int64(1); seed <= 10; seed++ {
		e := run(t, joinScenario("eager", seed, 2000, 200, 3000))
		c := run(t, joinScenario("cooperative", seed, 2000, 200, 3000))
		stopped = append(stopped, e.Metrics.AllStoppedMS)
		eagerDown = append(eagerDown, e.Metrics.DowntimeItemMS)
		coopDown = append(coopDown, c.Metrics.DowntimeItemMS)
		if c.Metrics.AllStoppedMS != 0 {
			t.Errorf("seed %d: cooperative stopped every partition for %d ms", seed, c.Metrics.AllStoppedMS)
		}
	}
	if m := median(stopped); m < 1000 {
		t.Errorf("eager stopped the world for %d ms (median of seeds 1-10), want >= 1000", m)
	}
	if e, c := median(eagerDown), median(coopDown); c >= e {
		t.Errorf("downtime: cooperative %d item-ms, eager %d: want cooperative lower", c, e)
	}
}

// One slow member holds an eager round open for everyone: its 30 s batches dominate.
func TestPerMemberProcessingHoldsTheEagerRound(t *testing.T) {
	var slow, fast []int64
	for seed := int64(1); seed <= 10; seed++ {
		s := joinScenario("eager", seed, 500, 0, 0)
		fast = append(fast, roundSpan(run(t, s)))
		s.Config.PerMember = map[string]MemberCosts{"m03": {ProcessingMS: cfgp(30_000)}}
		slow = append(slow, roundSpan(run(t, s)))
	}
	if f, s := median(fast), median(slow); s < 5000 || f > 600 {
		t.Fatalf("median eager round: %d ms with m03 on 30 s batches, %d ms without; want >= 5000 and <= 600", s, f)
	}
}

// A per-member revoke_ms is that member's own: its partitions stay in revoking that long.
func TestPerMemberRevokeCost(t *testing.T) {
	s := joinScenario("eager", 1, 0, 100, 0)
	s.Config.PerMember = map[string]MemberCosts{"m02": {RevokeMS: cfgp(4000)}}
	r := run(t, s)
	for _, tl := range r.Timeline {
		for _, sg := range tl.Segments {
			if sg.State != StateRevoking {
				continue
			}
			want := int64(100)
			if sg.Owner == "m02" {
				want = 4000
			}
			if sg.ToMS-sg.FromMS != want {
				t.Errorf("%s revoking on %s for %d ms, want %d", tl.Item, sg.Owner, sg.ToMS-sg.FromMS, want)
			}
		}
	}
}

// KIP-848's callbacks run in poll too: with 20 s batches a member revokes at its next poll,
// so the epoch takes longer to converge than with an instant poll loop (the revoked
// partitions keep working meanwhile, so it costs time to converge, not downtime).
func TestKIP848CallbacksWaitForPoll(t *testing.T) {
	var busy, idle []int64
	epoch := func(r *Result) int64 {
		rd := r.Rounds[len(r.Rounds)-1]
		return rd.EndMS - rd.StartMS
	}
	for seed := int64(1); seed <= 10; seed++ {
		busy = append(busy, epoch(run(t, joinScenario("consumer", seed, 20_000, 0, 0))))
		idle = append(idle, epoch(run(t, joinScenario("consumer", seed, 0, 0, 0))))
	}
	if b, i := median(busy), median(idle); b < i+5000 {
		t.Fatalf("KIP-848 epoch: %d ms with 20 s batches, %d ms with an instant poll loop; want 5 s longer at least", b, i)
	}
}

// Cooperative members keep processing until their poll: only the moved partitions pause.
func TestCooperativeProcessingPausesOnlyMoved(t *testing.T) {
	r := run(t, joinScenario("cooperative", 1, 2000, 200, 3000))
	if r.Metrics.PausedItems != r.Metrics.Moved {
		t.Fatalf("cooperative join: %d partitions paused, %d moved; want the same", r.Metrics.PausedItems, r.Metrics.Moved)
	}
}

func TestProcessingValidation(t *testing.T) {
	for _, c := range []struct {
		field string
		mod   func(*Scenario)
	}{
		{"config.processing_ms", func(s *Scenario) { s.Config.ProcessingMS = cfgp(MaxProcessingMS + 1) }},
		{"config.processing_ms", func(s *Scenario) { s.Config.ProcessingMS = cfgp(-1) }},
		{"config.per_member.nobody", func(s *Scenario) { s.Config.PerMember = map[string]MemberCosts{"nobody": {}} }},
		{"config.per_member.m01.start_ms", func(s *Scenario) {
			s.Config.PerMember = map[string]MemberCosts{"m01": {StartMS: cfgp(-5)}}
		}},
		{"config.per_member", func(s *Scenario) {
			s.Config.PerMember = map[string]MemberCosts{}
			for i := 0; i <= maxPerMember; i++ {
				s.Config.PerMember[fmt.Sprintf("x%d", i)] = MemberCosts{}
			}
		}},
	} {
		s := joinScenario("eager", 1, 0, 0, 0)
		c.mod(&s)
		_, err := Run(context.Background(), s, WebLimits)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("want an error on %s, got %v", c.field, err)
		}
	}
	conn := Scenario{Kind: "connect", Protocol: "eager", Connectors: map[string]int{"c": 2}, Members: []string{"w1"},
		Config: Config{ProcessingMS: cfgp(100)}}
	var fe *FieldError
	if _, err := Run(context.Background(), conn, WebLimits); !errors.As(err, &fe) || fe.Field != "config.processing_ms" {
		t.Errorf("Connect with processing_ms: %v", err)
	}
}

func TestPausedAndStopped(t *testing.T) {
	tl := []ItemTimeline{
		{Item: "a", Segments: []Segment{{0, 10, StateProcessing, "x"}, {10, 20, StateUnowned, ""}, {20, 30, StateProcessing, "x"}}},
		{Item: "b", Segments: []Segment{{0, 15, StateProcessing, "y"}, {15, 25, StateStarting, "y"}, {25, 30, StateProcessing, "y"}}},
		{Item: "c", Segments: []Segment{{0, 30, StateProcessing, "y"}}},
	}
	if p, s := pausedAndStopped(tl[:2]); p != 2 || s != 5 {
		t.Fatalf("a and b: paused %d, stopped %d ms; want 2 and 5", p, s)
	}
	if p, s := pausedAndStopped(tl); p != 2 || s != 0 {
		t.Fatalf("with c always working: paused %d, stopped %d ms; want 2 and 0", p, s)
	}
}
