package rebalance

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// Reference scenarios from kafka-facts.md (Kafka's own assignor tests), replayed in time.

func coop(topics map[string]int, members []string, init map[string][]string, evs ...Event) Scenario {
	return Scenario{Kind: "consumer", Protocol: "cooperative", Topics: topics, Members: members,
		InitialAssignment: init, Events: evs, DurationMS: 120_000, Seed: 7}.WithDefaults()
}

func TestFactCoopAddThenRemove(t *testing.T) {
	s := coop(map[string]int{"t": 3}, []string{"c1"}, nil,
		Event{AtMS: 10_000, Type: "join", Member: "c2"}, Event{AtMS: 60_000, Type: "leave", Member: "c1"})
	r := run(t, s)
	if len(r.Rounds) != 3 {
		t.Fatalf("want 2 rounds for the join and 1 for the leave, got %d: %+v", len(r.Rounds), r.Rounds)
	}
	r1, r2, r3 := r.Rounds[0], r.Rounds[1], r.Rounds[2]
	if !eq(r1.Assignment["c1"], []string{"t-0", "t-1"}) || len(r1.Assignment["c2"]) != 0 || !eq(r1.Revoked["c1"], []string{"t-2"}) {
		t.Errorf("round 1 must withhold t-2: %+v", r1)
	}
	if !eq(r2.Assignment["c2"], []string{"t-2"}) || len(r2.Revoked) != 0 {
		t.Errorf("round 2 must give c2 [t-2]: %+v", r2)
	}
	if !eq(r3.Assignment["c2"], []string{"t-0", "t-1", "t-2"}) || len(r3.Revoked) != 0 {
		t.Errorf("after c1 leaves c2 gets all without revocation: %+v", r3)
	}
}

func TestFactCoopTwoTopicsJoin(t *testing.T) {
	s := coop(map[string]int{"t1": 2, "t2": 2}, []string{"c1", "c2"},
		map[string][]string{"c1": {"t1-0", "t2-0"}, "c2": {"t1-1", "t2-1"}}, Event{AtMS: 10_000, Type: "join", Member: "c3"})
	r := run(t, s)
	if len(r.Rounds) != 2 || r.Metrics.Moved != 1 {
		t.Fatalf("want two rounds and one move, got %d rounds, %d moved", len(r.Rounds), r.Metrics.Moved)
	}
	if c := counts(final(r)); fmt.Sprint(c) != "[1 1 2]" || len(final(r)["c3"]) != 1 {
		t.Errorf("final counts %v, c3 %v", c, final(r)["c3"])
	}
}

func TestFactCoopFreshGetsUnowned(t *testing.T) {
	s := coop(map[string]int{"t": 4}, []string{"c1", "c2"},
		map[string][]string{"c1": {"t-0", "t-1"}, "c2": {"t-2"}}, Event{AtMS: 10_000, Type: "join", Member: "c3"})
	r := run(t, s)
	if len(r.Rounds) != 1 || r.Metrics.Moved != 0 || !eq(final(r)["c3"], []string{"t-3"}) {
		t.Fatalf("c3 must get [t-3] in one round with nothing moved: %+v moved %d", r.Rounds, r.Metrics.Moved)
	}
}

func TestFactCoopRemoveOneOfFour(t *testing.T) {
	init := map[string][]string{"c1": {"t-0"}, "c2": {"t-1"}, "c3": {"t-2"}}
	for _, gone := range []string{"c1", "c2", "c3", "c4"} {
		s := coop(map[string]int{"t": 3}, []string{"c1", "c2", "c3", "c4"}, init, Event{AtMS: 10_000, Type: "leave", Member: gone})
		r := run(t, s)
		f := final(r)
		if gone == "c4" {
			if len(r.Rounds) != 1 || r.Metrics.Moved != 0 {
				t.Errorf("idle c4 leaving moves nothing: %+v", r.Rounds)
			}
			continue
		}
		if len(r.Rounds) != 1 || len(r.Rounds[0].Revoked) != 0 {
			t.Errorf("%s leaves: want one round without revocation, got %+v", gone, r.Rounds)
		}
		for m, its := range f {
			if len(its) != 1 {
				t.Errorf("%s leaves: %s has %v", gone, m, its)
			}
			if had := init[m]; len(had) == 1 && its[0] != had[0] {
				t.Errorf("%s leaves: %s lost %v", gone, m, had)
			}
		}
	}
}

func TestFactCoopTwoTopicsScale(t *testing.T) {
	s := coop(map[string]int{"t1": 12, "t2": 12}, []string{"c1"}, nil,
		Event{AtMS: 10_000, Type: "join", Member: "c2"},
		Event{AtMS: 30_000, Type: "join", Member: "c3"}, Event{AtMS: 30_000, Type: "join", Member: "c4"},
		Event{AtMS: 60_000, Type: "leave", Member: "c3"}, Event{AtMS: 60_000, Type: "leave", Member: "c4"})
	r := run(t, s)
	perTopic := func(at int64) string {
		var a map[string][]string
		for _, rd := range r.Rounds {
			if rd.EndMS <= at {
				a = rd.Assignment
			}
		}
		var parts []string
		for _, m := range slices.Sorted(maps.Keys(a)) {
			n1 := 0
			for _, it := range a[m] {
				if strings.HasPrefix(it, "t1-") {
					n1++
				}
			}
			parts = append(parts, fmt.Sprintf("%d/%d", n1, len(a[m])-n1))
		}
		return strings.Join(parts, " ")
	}
	for _, c := range []struct {
		at   int64
		want string
	}{{25_000, "6/6 6/6"}, {55_000, "3/3 3/3 3/3 3/3"}, {110_000, "6/6 6/6"}} {
		if got := perTopic(c.at); got != c.want {
			t.Errorf("at %d ms per-topic counts %q, want %q", c.at, got, c.want)
		}
	}
}

func connectScenario(n int, conns map[string]int, init map[string][]string, evs ...Event) Scenario {
	return Scenario{Kind: "connect", Protocol: "incremental", Connectors: conns, Members: members(n, "w"),
		InitialAssignment: init, Events: evs, DurationMS: 600_000, Seed: 3}.WithDefaults()
}

// split counts a member's connectors and tasks.
func split(its []string, conns map[string]int) (c, t int) {
	for _, it := range its {
		if _, ok := conns[it]; ok {
			c++
		} else {
			t++
		}
	}
	return
}

func TestFactConnectJoin(t *testing.T) {
	conns := map[string]int{"a": 4, "b": 4}
	r := run(t, connectScenario(1, conns, nil, Event{AtMS: 10_000, Type: "join", Member: "w2"}))
	if len(r.Rounds) != 2 {
		t.Fatalf("want a revoking round and a follow-up, got %+v", r.Rounds)
	}
	c, tk := split(r.Rounds[0].Revoked["w1"], conns)
	if c != 1 || tk != 4 || len(r.Rounds[0].Assignment["w2"]) != 0 {
		t.Errorf("round 1 must revoke (1;4) from w1 and give w2 nothing: %+v", r.Rounds[0])
	}
	if len(r.Rounds[1].Revoked) != 0 {
		t.Errorf("follow-up must not revoke: %+v", r.Rounds[1])
	}
	for _, w := range []string{"w1", "w2"} {
		if c, tk := split(final(r)[w], conns); c != 1 || tk != 4 {
			t.Errorf("%s ends with (%d;%d), want (1;4)", w, c, tk)
		}
	}
}

func TestFactConnectLeaveParksForDelay(t *testing.T) {
	conns := map[string]int{"a": 4, "b": 4}
	init := map[string][]string{"w1": {"a", "a-0", "a-1", "a-2", "a-3"}, "w2": {"b", "b-0", "b-1", "b-2", "b-3"}}
	s := connectScenario(2, conns, init, Event{AtMS: 10_000, Type: "leave", Member: "w2"})
	s.DurationMS = 400_000
	r := run(t, s)
	if len(r.Rounds) != 2 {
		t.Fatalf("want the departure round and the delayed round, got %+v", r.Rounds)
	}
	first, last := r.Rounds[0], r.Rounds[1]
	if len(first.Parked) != 5 || len(first.Assignment["w1"]) != 5 {
		t.Errorf("w2's work must be parked: %+v", first)
	}
	// 150 s into the delay the work is still unassigned.
	if p := paused(r, first.EndMS+150_000, first.EndMS+150_001); len(p) != 5 {
		t.Errorf("at +150 s %d items are stopped, want 5", len(p))
	}
	if wait := last.StartMS - first.EndMS; wait < 299_000 || wait > 301_000 {
		t.Errorf("reassignment after %d ms, want the 300 000 ms delay", wait)
	}
	if c, tk := split(last.Assignment["w1"], conns); c != 2 || tk != 8 {
		t.Errorf("w1 must end with (2;8), got (%d;%d)", c, tk)
	}
}

func TestFactConnectNoDelay(t *testing.T) {
	conns := map[string]int{"a": 4, "b": 4, "c": 4}
	s := connectScenario(3, conns, nil, Event{AtMS: 10_000, Type: "leave", Member: "w3"}, Event{AtMS: 60_000, Type: "join", Member: "w3"})
	s.Config.ScheduledRebalanceMaxDelayMS = cfgp(0)
	r := run(t, s)
	for _, rd := range r.Rounds {
		if len(rd.Parked) > 0 {
			t.Fatalf("no parking with a zero delay: %+v", rd)
		}
	}
	after := r.Rounds[0]
	if total(after.Assignment) != 15 {
		t.Errorf("w3's work must be reassigned at once: %+v", after)
	}
	for _, w := range []string{"w1", "w2", "w3"} {
		if c, tk := split(final(r)[w], conns); c != 1 || tk != 4 {
			t.Errorf("%s ends with (%d;%d), want (1;4)", w, c, tk)
		}
	}
}
