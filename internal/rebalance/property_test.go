package rebalance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// randomScenario builds a valid scenario of any kind and protocol with random events.
func randomScenario(rng *rand.Rand) Scenario {
	s := Scenario{Seed: rng.Int64N(1000), DurationMS: 400_000}
	if rng.IntN(3) == 0 {
		s.Kind = "connect"
		s.Protocol = []string{"eager", "incremental"}[rng.IntN(2)]
		s.Connectors = map[string]int{"a": rng.IntN(6), "b": 1 + rng.IntN(8)}
		if rng.IntN(2) == 0 {
			s.Config.ScheduledRebalanceMaxDelayMS = cfgp(int64(rng.IntN(3)) * 30_000)
		}
	} else {
		s.Kind = "consumer"
		s.Protocol = []string{"eager", "cooperative", "consumer"}[rng.IntN(3)]
		s.Assignor = map[string][]string{"eager": {"range", "roundrobin", "sticky"}, "cooperative": {"cooperative-sticky"}, "consumer": {"uniform", "range"}}[s.Protocol][0]
		if s.Protocol == "eager" {
			s.Assignor = []string{"range", "roundrobin", "sticky"}[rng.IntN(3)]
		}
		s.Topics = map[string]int{"t": 1 + rng.IntN(20)}
		if rng.IntN(3) == 0 {
			s.Topics["u"] = 1 + rng.IntN(5)
		}
	}
	s.StaticMembership = s.Kind == "consumer" && rng.IntN(3) == 0
	n := rng.IntN(6)
	s.Members = members(n, "m")
	present := map[string]bool{}
	for _, m := range s.Members {
		present[m] = true
	}
	next := n + 1
	at := int64(0)
	for range rng.IntN(7) {
		at += int64(rng.IntN(40_000))
		var names []string
		for _, m := range s.Members {
			if present[m] {
				names = append(names, m)
			}
		}
		for i := n + 1; i < next; i++ {
			if m := fmt.Sprintf("m%d", i); present[m] {
				names = append(names, m)
			}
		}
		pick := func() string { return names[rng.IntN(len(names))] }
		ev := Event{AtMS: at}
		switch k := rng.IntN(9); {
		case k == 0 || len(names) == 0:
			ev.Type, ev.Member = "join", fmt.Sprintf("m%d", next)
			next++
			present[ev.Member] = true
		case k == 1:
			ev.Type, ev.Member = "leave", pick()
			delete(present, ev.Member)
		case k == 2:
			ev.Type, ev.Member = "crash", pick()
			delete(present, ev.Member)
		case k == 3:
			ev.Type, ev.Member, ev.DownMS = "restart", pick(), int64(1+rng.IntN(60_000))
		case k == 4:
			ev.Type, ev.IntervalMS, ev.DownMS = "rolling_restart", int64(5_000+rng.IntN(30_000)), int64(1+rng.IntN(20_000))
		case k == 5:
			ev.Type, ev.Member, ev.Count, ev.IntervalMS, ev.DownMS = "flap", pick(), 1+rng.IntN(3), 20_000, int64(1+rng.IntN(15_000))
		case k == 6 && s.Kind == "consumer":
			ev.Type, ev.Member, ev.DurationMS = "slow_poll", pick(), int64(rng.IntN(400_000))+1
			ev.DurationMS = min(ev.DurationMS, s.DurationMS)
		case k == 7 && s.Kind == "consumer":
			ev.Type, ev.Topic = "add_partitions", "t"
			s.Topics["t"] += 0
			ev.Partitions = s.Topics["t"] + 1 + rng.IntN(4) + countAdds(s.Events)
		case s.Kind == "connect":
			ev.Type, ev.Connector, ev.Tasks = "set_tasks", "b", rng.IntN(10)
		default:
			ev.Type, ev.Member = "join", fmt.Sprintf("m%d", next)
			next++
			present[ev.Member] = true
		}
		s.Events = append(s.Events, ev)
	}
	return s.WithDefaults()
}

func countAdds(evs []Event) int {
	n := 0
	for _, e := range evs {
		if e.Type == "add_partitions" {
			n = max(n, e.Partitions)
		}
	}
	return n
}

func TestPropertyRandomScenarios(t *testing.T) {
	rng := rand.New(rand.NewPCG(propSeed, 2))
	ran := 0
	for i := 0; i < propN; i++ {
		s := randomScenario(rng)
		if err := s.Validate(CLILimits); err != nil {
			continue // e.g. add_partitions not growing; the generator is loose on purpose
		}
		ran++
		r, err := Run(context.Background(), s, CLILimits)
		if err != nil {
			t.Fatalf("scenario %d: %v", i, err)
		}
		b, _ := json.Marshal(s)
		if len(r.InvariantFailures) > 0 || r.Metrics.Violations > 0 {
			t.Fatalf("seed %d scenario %d %s\nbroke invariants: %v", propSeed, i, b, r.InvariantFailures)
		}
		checkTimeline(t, r, string(b))
	}
	if ran < propN*3/4 {
		t.Fatalf("only %d random scenarios were valid", ran)
	}
}

// checkTimeline: segments are ordered, non-overlapping, within the run, and availability is
// consistent with them.
func checkTimeline(t *testing.T, r *Result, desc string) {
	t.Helper()
	var proc, all int64
	for _, tl := range r.Timeline {
		last := int64(-1)
		for _, sg := range tl.Segments {
			if sg.FromMS < last || sg.ToMS <= sg.FromMS || sg.ToMS > r.DurationMS {
				t.Fatalf("%s: bad segment %+v in %s", desc, sg, tl.Item)
			}
			if sg.State != StateUnowned && sg.Owner == "" {
				t.Fatalf("%s: %s segment without owner in %s", desc, sg.State, tl.Item)
			}
			last = sg.ToMS
			all += sg.ToMS - sg.FromMS
			if sg.State == StateProcessing {
				proc += sg.ToMS - sg.FromMS
			}
		}
	}
	if all > 0 && !r.Truncated {
		got := float64(proc) / float64(all)
		if d := got - r.Metrics.Availability; d > 1e-9 || d < -1e-9 {
			t.Fatalf("%s: availability %v but timeline says %v", desc, r.Metrics.Availability, got)
		}
	}
}

func TestDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 30; i++ {
		s := randomScenario(rng)
		if s.Validate(CLILimits) != nil {
			continue
		}
		a, _ := Run(context.Background(), s, CLILimits)
		b, _ := Run(context.Background(), s, CLILimits)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("scenario %d: two runs differ", i)
		}
	}
	// A different seed moves heartbeat phases, so timings change.
	s := pre(t, "consumer-join", "")
	a, _ := Run(context.Background(), s, CLILimits)
	s.Seed = 99
	b, _ := Run(context.Background(), s, CLILimits)
	if a.Rounds[0].EndMS == b.Rounds[0].EndMS {
		t.Errorf("seed should change heartbeat timing")
	}
}

func TestBudget(t *testing.T) {
	s := pre(t, "consumer-rolling-restart", "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, s, CLILimits); !errors.Is(err, ErrBudget) {
		t.Fatalf("cancelled run: %v, want ErrBudget", err)
	}
}

func TestDecodeErrorsNameTheField(t *testing.T) {
	cases := map[string]string{
		`{"kind":"consumer","topics":{"t":3},"members":["a"],"bogus":1}`:                                                                 "bogus",
		`{"kind":"consumer","topics":{"t":3},"config":{"session_timeout":1}}`:                                                            "session_timeout",
		`{"kind":"queue","topics":{"t":3}}`:                                                                                              "kind",
		`{"kind":"consumer","protocol":"incremental","topics":{"t":3}}`:                                                                  "protocol",
		`{"kind":"consumer","protocol":"cooperative","assignor":"range","topics":{"t":3}}`:                                               "assignor",
		`{"kind":"consumer","topics":{"t":0}}`:                                                                                           "topics.t",
		`{"kind":"consumer","topics":{"t":3},"members":["a","a"]}`:                                                                       "members[1]",
		`{"kind":"consumer","topics":{"t":3},"members":["a"],"events":[{"at_ms":700000,"type":"join","member":"b"}]}`:                    "events[0].at_ms",
		`{"kind":"consumer","topics":{"t":3},"members":["a"],"events":[{"at_ms":1,"type":"leave","member":"b"}]}`:                        "events[0].member",
		`{"kind":"consumer","topics":{"t":3},"members":["a"],"events":[{"at_ms":1,"type":"explode"}]}`:                                   "events[0].type",
		`{"kind":"consumer","topics":{"t":3},"members":["a"],"events":[{"at_ms":1,"type":"add_partitions","topic":"t","partitions":2}]}`: "events[0].partitions",
		`{"kind":"consumer","topics":{"t":3},"config":{"heartbeat_interval_ms":50000}}`:                                                  "config.heartbeat_interval_ms",
		`{"kind":"consumer","topics":{"t":3},"members":["a"],"initial_assignment":{"a":["t-9"]}}`:                                        "initial_assignment.a[0]",
		`{"kind":"connect","connectors":{"c":2},"members":["a"],"events":[{"at_ms":1,"type":"slow_poll","member":"a","duration_ms":5}]}`: "events[0].type",
		`{"kind":"consumer","topics":{"t":3},"duration_ms":100000000}`:                                                                   "duration_ms",
	}
	for in, field := range cases {
		_, err := Decode(strings.NewReader(in), CLILimits)
		fe, ok := err.(*FieldError)
		if !ok || fe.Field != field {
			t.Errorf("%s\n  got %v, want an error on %s", in, err, field)
		}
	}
	big := `{"kind":"consumer","topics":{"t":6000},"members":["a"]}`
	if _, err := Decode(strings.NewReader(big), WebLimits); err == nil || !strings.HasPrefix(err.Error(), "topics") {
		t.Errorf("web limits: %v", err)
	}
	if _, err := Decode(strings.NewReader(big), CLILimits); err != nil {
		t.Errorf("CLI limits allow it: %v", err)
	}
}

func TestCardScenarios(t *testing.T) {
	ss, err := CardScenarios("consumer-static-restart", []string{"eager", "eager+static", "consumer"}, map[string]any{"duration_ms": 90000})
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 3 || !ss[1].StaticMembership || ss[2].Assignor != "uniform" || ss[0].DurationMS != 90000 || *ss[2].Config.HeartbeatIntervalMS != 5000 {
		t.Errorf("variants %+v", ss)
	}
	for in, want := range map[string]string{"nope": `unknown preset "nope"`} {
		if _, err := CardScenarios(in, nil, nil); err == nil || err.Error() != want {
			t.Errorf("%v", err)
		}
	}
	if _, err := CardScenarios("connect-add-worker", []string{"incremental", "cooperative"}, nil); err == nil || !strings.HasPrefix(err.Error(), "compare[1]") {
		t.Errorf("bad label: %v", err)
	}
	if _, err := CardScenarios("consumer-join", nil, map[string]any{"members": []any{"m1", "m1"}}); err == nil || !strings.HasPrefix(err.Error(), "overrides.members") {
		t.Errorf("bad override: %v", err)
	}
	if _, err := CardScenarios("consumer-join", nil, map[string]any{"nonsense": 1}); err == nil || !strings.HasPrefix(err.Error(), "overrides.nonsense") {
		t.Errorf("unknown override: %v", err)
	}
}

var propN, propSeed = 400, uint64(1)

func init() {
	if v := os.Getenv("REBALANCE_PROP_N"); v != "" {
		propN, _ = strconv.Atoi(v)
		propSeed = uint64(time.Now().UnixNano())
	}
}
