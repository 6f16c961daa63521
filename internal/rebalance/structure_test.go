package rebalance

import (
	"strings"
	"testing"
)

func pre(t *testing.T, name, label string) Scenario {
	t.Helper()
	s, ok := Preset(name)
	if !ok {
		t.Fatalf("no preset %q", name)
	}
	if label != "" {
		var err error
		if s, err = Variant(s, label); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func TestEagerJoinAndLeaveStopTheWorld(t *testing.T) {
	for _, name := range []string{"consumer-join", "consumer-leave"} {
		for _, a := range []string{"range", "roundrobin", "sticky"} {
			s := pre(t, name, "eager")
			s.Assignor = a
			r := run(t, s)
			if len(r.Rounds) != 1 || !r.Rounds[0].StopTheWorld || r.Metrics.StopTheWorldRebalances != 1 {
				t.Fatalf("%s/%s: want one stop-the-world rebalance, got %+v", name, a, r.Rounds)
			}
			rd := r.Rounds[0]
			if p := paused(r, rd.StartMS, rd.EndMS+1); len(p) != len(r.Items) {
				t.Errorf("%s/%s: %d of %d items paused; eager pauses every item", name, a, len(p), len(r.Items))
			}
		}
	}
}

func TestCooperativeJoinTwoRoundsOnlyMovedPause(t *testing.T) {
	r := run(t, pre(t, "consumer-join", "cooperative"))
	if len(r.Rounds) != 2 || r.Metrics.StopTheWorldRebalances != 0 {
		t.Fatalf("want two cooperative rounds, got %+v", r.Rounds)
	}
	moved := map[string]bool{}
	for _, its := range r.Rounds[1].Added {
		for _, it := range its {
			moved[it] = true
		}
	}
	if len(moved) != 3 || len(r.Rounds[0].Added) != 0 {
		t.Fatalf("round 1 gives nothing, round 2 the 3 withheld partitions: %+v", r.Rounds)
	}
	p := paused(r, 1, r.DurationMS)
	if len(p) != len(moved) {
		t.Errorf("paused %v, want only the moved %v", p, moved)
	}
	for it := range p {
		if !moved[it] {
			t.Errorf("%s paused but did not move", it)
		}
	}
	if r.Metrics.WastedMoves != 0 || r.Metrics.Moved != 3 {
		t.Errorf("metrics %+v", r.Metrics)
	}
}

func TestCooperativeLeaveAndCrashOneRoundNoRevocation(t *testing.T) {
	for _, name := range []string{"consumer-leave", "consumer-crash"} {
		r := run(t, pre(t, name, "cooperative"))
		if len(r.Rounds) != 1 || len(r.Rounds[0].Revoked) != 0 {
			t.Fatalf("%s: want one round revoking nothing, got %+v", name, r.Rounds)
		}
		// Survivors keep processing: only the departed member's 3 partitions pause.
		if p := paused(r, 1, r.DurationMS); len(p) != 3 {
			t.Errorf("%s: %d items paused, want 3", name, len(p))
		}
	}
}

func TestStaticRestartWithinSessionNoRebalance(t *testing.T) {
	for _, label := range []string{"eager+static", "cooperative+static", "consumer+static"} {
		r := run(t, pre(t, "consumer-static-restart", label))
		if len(r.Rounds) != 0 {
			t.Errorf("%s: want no rebalance, got %+v", label, r.Rounds)
		}
		// m2's partitions come back to m2; nobody else pauses.
		if p := paused(r, 1, r.DurationMS); len(p) != 3 || r.Metrics.Moved != 0 {
			t.Errorf("%s: paused %v moved %d", label, p, r.Metrics.Moved)
		}
	}
	dyn := run(t, pre(t, "consumer-static-restart", "eager"))
	if len(dyn.Rounds) != 2 {
		t.Errorf("dynamic restart: want leave + rejoin rebalances, got %d", len(dyn.Rounds))
	}
}

func TestStaticCrashWaitsSessionTimeout(t *testing.T) {
	for _, label := range []string{"eager+static", "cooperative+static", "consumer+static"} {
		s := pre(t, "consumer-static-crash", label)
		r := run(t, s)
		if len(r.Rounds) != 1 {
			t.Fatalf("%s: want one rebalance after the session timeout, got %+v", label, r.Rounds)
		}
		if wait := r.Rounds[0].StartMS - 10_000; wait < *s.Config.SessionTimeoutMS-*s.Config.HeartbeatIntervalMS {
			t.Errorf("%s: rebalance %d ms after the crash, want about the session timeout", label, wait)
		}
		if r.Metrics.MaxPauseMS < *s.Config.SessionTimeoutMS-*s.Config.HeartbeatIntervalMS {
			t.Errorf("%s: max pause %d, the crashed member's items must wait the session timeout", label, r.Metrics.MaxPauseMS)
		}
	}
}

func TestConnectDepartureParkedThenReassigned(t *testing.T) {
	s := pre(t, "connect-worker-lost", "")
	r := run(t, s)
	if len(r.Rounds) != 2 || len(r.Rounds[0].Parked) == 0 || len(r.Rounds[1].Parked) != 0 {
		t.Fatalf("want a parking round then the reassignment, got %+v", r.Rounds)
	}
	if gap := r.Rounds[1].StartMS - r.Rounds[0].EndMS; gap < *s.Config.ScheduledRebalanceMaxDelayMS-1000 {
		t.Errorf("reassigned after %d ms, before the delay", gap)
	}
	if total(final(r)) != len(r.Items) || len(final(r)["w2"]) != 0 {
		t.Errorf("final %v", final(r))
	}
	// The bounced worker gets its own work back.
	b := run(t, pre(t, "connect-worker-bounce", ""))
	lost := b.Rounds[0].Parked
	if !eq(final(b)["w2"], lost) {
		t.Errorf("w2 must get back %v, got %v", lost, final(b)["w2"])
	}
	if b.Metrics.Moved != 0 {
		t.Errorf("nothing moves in a bounce within the delay, got %d", b.Metrics.Moved)
	}
}

func TestConnectLoadBalancingRevocation(t *testing.T) {
	r := run(t, pre(t, "connect-add-worker", ""))
	if len(r.Rounds) != 2 || len(r.Rounds[0].Revoked) == 0 || len(r.Rounds[1].Added["w3"]) == 0 {
		t.Fatalf("want a revoking round then w3 gets the freed work: %+v", r.Rounds)
	}
	e := run(t, pre(t, "connect-add-worker", "eager"))
	if len(e.Rounds) != 1 || !e.Rounds[0].StopTheWorld {
		t.Errorf("eager Connect: one stop-the-world round, got %+v", e.Rounds)
	}
}

func TestEagerRollingRestartPausesTwicePerMember(t *testing.T) {
	s := pre(t, "consumer-rolling-restart", "eager")
	r := run(t, s)
	n := len(s.Members)
	if r.Metrics.StopTheWorldRebalances != 2*n {
		t.Fatalf("want %d stop-the-world rebalances, got %d", 2*n, r.Metrics.StopTheWorldRebalances)
	}
	for _, tl := range r.Timeline {
		// Every item pauses in each of the 2N rebalances; its own owner's restart may merge two.
		if p := pauses(tl); p < 2*n-1 || p > 2*n {
			t.Errorf("%s paused %d times, want about %d", tl.Item, p, 2*n)
		}
	}
	// Cooperative stops nothing and moves less. (It does not always lose less processing: a
	// moved partition waits for the follow-up round, which the members that revoked nothing
	// hear of a heartbeat after their JoinGroup response, 3 s by default.)
	c := run(t, pre(t, "consumer-rolling-restart", "cooperative"))
	if c.Metrics.StopTheWorldRebalances != 0 || c.Metrics.Moved >= r.Metrics.Moved || c.Metrics.WastedMoves != 0 {
		t.Errorf("cooperative must stop nothing and move less: %+v vs %+v", c.Metrics, r.Metrics)
	}
}

func TestKIP848ReconcilesWithoutBarrier(t *testing.T) {
	r := run(t, pre(t, "consumer-join", "consumer"))
	if len(r.Rounds) != 1 || r.Rounds[0].StopTheWorld {
		t.Fatalf("want one epoch, no barrier: %+v", r.Rounds)
	}
	added := r.Rounds[0].Added["m4"]
	if len(added) != 3 {
		t.Fatalf("m4 gets 3 partitions, got %v", added)
	}
	p := paused(r, 1, r.DurationMS)
	if len(p) != 3 {
		t.Errorf("only moved partitions pause, got %v", p)
	}
	// Each moved partition passes through revoking then unowned before m4 starts it: given
	// only after release.
	for _, tl := range r.Timeline {
		if !p[tl.Item] {
			continue
		}
		var states []string
		for _, sg := range tl.Segments {
			states = append(states, sg.State)
		}
		want := []string{"processing", "revoking", "unowned", "starting", "processing"}
		if !eq(states, want) {
			t.Errorf("%s went %v, want %v", tl.Item, states, want)
		}
	}
}

func TestInitialJoinOneRebalance(t *testing.T) {
	r := run(t, pre(t, "consumer-initial-join", ""))
	if len(r.Rounds) != 1 || len(final(r)) != 4 {
		t.Fatalf("the initial delay gathers all four joiners in one rebalance: %+v", r.Rounds)
	}
	if r.Rounds[0].EndMS < 900+3000 {
		t.Errorf("the first rebalance ends at %d, before the extended initial delay", r.Rounds[0].EndMS)
	}
	s := pre(t, "consumer-initial-join", "")
	s.Config.InitialRebalanceDelayMS = cfgp(0)
	if r := run(t, s); len(r.Rounds) < 2 {
		t.Errorf("without the delay each joiner rebalances: %d rounds", len(r.Rounds))
	}
}

func TestSlowPollStallsEagerJoin(t *testing.T) {
	s := pre(t, "consumer-slow-poll", "")
	r := run(t, s)
	if len(r.Rounds) != 2 {
		t.Fatalf("want the stalled join round and m3's rejoin: %+v", r.Rounds)
	}
	if end := r.Rounds[0].EndMS; end < 10_000+*s.Config.RebalanceTimeoutMS {
		t.Errorf("the join round ends at %d; it must wait for m3's poll timeout", end)
	}
}

func TestMoreMembersThanPartitions(t *testing.T) {
	r := run(t, pre(t, "consumer-more-members-than-partitions", ""))
	idle := 0
	for _, its := range final(r) {
		if len(its) == 0 {
			idle++
		}
	}
	if idle != 3 {
		t.Errorf("7 members on 4 partitions leave 3 idle, got %d", idle)
	}
}

func TestEveryPresetRunsClean(t *testing.T) {
	for _, p := range Presets() {
		labels := []string{"eager", "cooperative", "consumer", "eager+static", "cooperative+static", "consumer+static"}
		if p.Kind == "connect" {
			labels = []string{"eager", "incremental"}
		}
		for _, l := range labels {
			r := run(t, pre(t, p.Name, l))
			if p.Name == "consumer-migrate-one-step" && l == "eager+static" {
				// Static members leave no LeaveGroup: the group never empties, every return is
				// refused and nothing is left processing. The mistake never settles.
				if r.Metrics.TimeToStableMS >= 0 {
					t.Errorf("%s/%s settles; every static member should be refused", p.Name, l)
				}
				continue
			}
			if r.Metrics.TimeToStableMS < 0 {
				t.Errorf("%s/%s does not settle within its duration", p.Name, l)
			}
			if len(Narrate(r)) != len(r.Rounds) {
				t.Errorf("%s/%s: narration length", p.Name, l)
			}
		}
	}
}

func TestConnectNoBalancingRevocationDuringDelay(t *testing.T) {
	s := pre(t, "connect-worker-lost", "")
	s.Events = append(s.Events, Event{AtMS: 60_000, Type: "join", Member: "w4"})
	r := run(t, s)
	var expiry Round
	for _, rd := range r.Rounds {
		if rd.Trigger == "scheduled.rebalance.max.delay.ms expires" {
			expiry = rd
			break
		}
		if len(rd.Revoked) > 0 {
			t.Fatalf("a revocation while the delay is active: %+v", rd)
		}
	}
	if expiry.Generation == 0 {
		t.Fatalf("no delayed round: %+v", r.Rounds)
	}
	// w4 joined empty during the delay, so it is the candidate that receives the lost work.
	if got, lost := len(expiry.Added["w4"]), len(r.Rounds[0].Parked); got != lost {
		t.Errorf("w4 got %d of the %d lost items at expiry: %+v", got, lost, expiry)
	}
}

func TestNarrate(t *testing.T) {
	r := run(t, pre(t, "consumer-join", "cooperative"))
	lines := Narrate(r)
	if len(lines) != 2 {
		t.Fatalf("want a sentence per round, got %q", lines)
	}
	// The generation, never a "round 2" that contradicts the views' round 1 of the episode.
	if !strings.HasPrefix(lines[0], "at 10.0 s m4 joins; generation 2 takes ") || !strings.Contains(lines[0], "everything else keeps processing") {
		t.Errorf("generation 2: %q", lines[0])
	}
	if !strings.Contains(lines[1], "to m4") {
		t.Errorf("round 3 must hand the withheld partitions to m4: %q", lines[1])
	}
	e := Narrate(run(t, pre(t, "consumer-join", "eager")))
	if len(e) != 1 || !strings.Contains(e[0], "stops every member") {
		t.Errorf("eager: %q", e)
	}
}
