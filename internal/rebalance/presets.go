package rebalance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// PresetInfo describes a named scenario.
type PresetInfo struct {
	Name, Kind, Title, Description string // Title is for people, Name for URLs and --preset
}

type preset struct {
	info PresetInfo
	s    Scenario
}

func members(n int, prefix string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}

// consumerBase is a consumer group in a production regime: each poll brings a second of work,
// a revocation commits and closes for 200 ms, a new owner warms up for a second. With an
// instant poll loop and free callbacks eager would pause only milliseconds, which is not the
// world the cards' claims are about.
func consumerBase(n, parts int, dur int64) Scenario {
	return Scenario{Kind: "consumer", Protocol: "eager", Assignor: "range", Topics: map[string]int{"orders": parts},
		Members: members(n, "m"), DurationMS: dur, Seed: 1, Config: productionCosts()}
}

func productionCosts() Config {
	return Config{ProcessingMS: i64(1000), RevokeMS: i64(200), StartMS: i64(1000)}
}

func connectBase(n int, dur int64) Scenario {
	return Scenario{Kind: "connect", Protocol: "incremental", Connectors: map[string]int{"jdbc-sink": 4, "s3-sink": 4},
		Members: members(n, "w"), DurationMS: dur, Seed: 1}
}

var presets = []preset{
	{PresetInfo{"consumer-join", "consumer", "Consumers: a member joins", "Three consumers share orders (12 partitions); m4 joins at 10 s. Eager range by default (Kafka's effective default): one stop-the-world rebalance. Compare with cooperative: two rounds, only moved partitions pause."},
		with(consumerBase(3, 12, 60_000), Event{AtMS: 10_000, Type: "join", Member: "m4"})},
	{PresetInfo{"consumer-leave", "consumer", "Consumers: a member leaves cleanly", "Four consumers; m4 shuts down cleanly at 10 s and sends LeaveGroup, so the group rebalances at once."},
		with(consumerBase(4, 12, 60_000), Event{AtMS: 10_000, Type: "leave", Member: "m4"})},
	{PresetInfo{"consumer-crash", "consumer", "Consumers: a member crashes", "Four consumers; m2 crashes at 10 s without a LeaveGroup. Its partitions stay unprocessed until the coordinator misses its heartbeats for session.timeout.ms (45 s)."},
		with(consumerBase(4, 12, 90_000), Event{AtMS: 10_000, Type: "crash", Member: "m2"})},
	{PresetInfo{"consumer-rolling-restart", "consumer", "Consumers: rolling restart", "A deploy restarts all four consumers in turn, 30 s apart, each down 10 s. Eager dynamic members pay two stop-the-world rebalances per restart (leave, rejoin)."},
		with(consumerBase(4, 12, 180_000), Event{AtMS: 10_000, Type: "rolling_restart", IntervalMS: 30_000, DownMS: 10_000})},
	{PresetInfo{"consumer-flapping", "consumer", "Consumers: a flapping member", "m2 crashes and comes back 5 s later, three times a minute apart. Each return is a new member id while the dead one lingers until the session timeout, so every flap drags a rebalance out."},
		with(consumerBase(4, 12, 240_000), Event{AtMS: 10_000, Type: "flap", Member: "m2", Count: 3, IntervalMS: 60_000, DownMS: 5_000})},
	{PresetInfo{"consumer-static-restart", "consumer", "Consumers: a restart within the session timeout", "m2 restarts at 10 s and is back 15 s later, within the 45 s session timeout. Dynamic: two rebalances. With +static (group.instance.id): no rebalance, m2 gets its partitions back."},
		with(consumerBase(4, 12, 60_000), Event{AtMS: 10_000, Type: "restart", Member: "m2", DownMS: 15_000})},
	{PresetInfo{"consumer-static-crash", "consumer", "Consumers: a static member crashes", "Static members; m2 crashes at 10 s and does not return. Nothing rebalances until its session times out (45 s), so its partitions wait that long: the price of static membership."},
		staticOn(with(consumerBase(4, 12, 90_000), Event{AtMS: 10_000, Type: "crash", Member: "m2"}))},
	{PresetInfo{"consumer-slow-poll", "consumer", "Consumers: a poll loop stuck past max.poll.interval.ms", "m3's poll loop is stuck for 320 s from 10 s, longer than max.poll.interval.ms (300 s); m4 joins at 30 s. The join phase waits for m3 until its poll timeout makes it leave, then m3 rejoins when its poll returns."},
		with(consumerBase(3, 12, 420_000), Event{AtMS: 10_000, Type: "slow_poll", Member: "m3", DurationMS: 320_000}, Event{AtMS: 30_000, Type: "join", Member: "m4"})},
	{PresetInfo{"consumer-scale-out", "consumer", "Consumers: scaling out from 2 to 6", "Autoscaling from 2 to 6 consumers on orders (24 partitions): m3 to m6 join 10 s apart, one rebalance (or two, cooperative) each."},
		with(consumerBase(2, 24, 90_000), Event{AtMS: 10_000, Type: "join", Member: "m3"}, Event{AtMS: 20_000, Type: "join", Member: "m4"},
			Event{AtMS: 30_000, Type: "join", Member: "m5"}, Event{AtMS: 40_000, Type: "join", Member: "m6"})},
	{PresetInfo{"consumer-add-partitions", "consumer", "Consumers: partitions added", "orders grows from 6 to 12 partitions at 10 s. The leader notices the new partitions (assumed at once here; in practice within metadata.max.age.ms) and rejoins."},
		with(consumerBase(3, 6, 60_000), Event{AtMS: 10_000, Type: "add_partitions", Topic: "orders", Partitions: 12})},
	{PresetInfo{"consumer-initial-join", "consumer", "Consumers: an empty group forms", "An empty group forms: m1 to m4 join 300 ms apart. group.initial.rebalance.delay.ms (3 s) holds the first rebalance and is extended while members keep arriving, so one rebalance covers all four."},
		with(Scenario{Kind: "consumer", Protocol: "eager", Assignor: "range", Topics: map[string]int{"orders": 12}, Members: []string{}, DurationMS: 30_000, Seed: 1, Config: productionCosts()},
			Event{AtMS: 0, Type: "join", Member: "m1"}, Event{AtMS: 300, Type: "join", Member: "m2"}, Event{AtMS: 600, Type: "join", Member: "m3"}, Event{AtMS: 900, Type: "join", Member: "m4"})},
	{PresetInfo{"consumer-more-members-than-partitions", "consumer", "Consumers: more members than partitions", "Six consumers on a topic with 4 partitions: two are idle. m7 joins at 10 s and still rebalances the whole group (eager) for no extra throughput."},
		with(consumerBase(6, 4, 60_000), Event{AtMS: 10_000, Type: "join", Member: "m7"})},
	{PresetInfo{"consumer-migrate-cooperative", "consumer", "Consumers: migrating to cooperative, two bounces", "Eager range to cooperative-sticky the safe way, two rolling bounces (Kafka's upgrade path): first every consumer comes back listing [cooperative-sticky, range] (the vote picks cooperative-sticky, but each still runs EAGER while range is in its list), then [cooperative-sticky] alone; once the last one is back the group rebalances cooperatively."},
		migration(Event{AtMS: 10_000, Type: "rolling_restart", IntervalMS: 30_000, DownMS: 10_000, Assignors: []string{"cooperative-sticky", "range"}},
			Event{AtMS: 150_000, Type: "rolling_restart", IntervalMS: 30_000, DownMS: 10_000, Assignors: []string{"cooperative-sticky"}})},
	{PresetInfo{"consumer-migrate-one-step", "consumer", "Consumers: migrating in one bounce (the mistake)", "The one-step mistake: consumers come back listing only [cooperative-sticky] while the rest of the group lists only range. Each JoinGroup shares no assignor with the group and fails with INCONSISTENT_GROUP_PROTOCOL, until the group has emptied."},
		migration(Event{AtMS: 10_000, Type: "rolling_restart", IntervalMS: 30_000, DownMS: 10_000, Assignors: []string{"cooperative-sticky"}})},
	{PresetInfo{"connect-worker-bounce", "connect", "Connect: a worker restarts", "Three workers run 2 connectors × 4 tasks. w2 restarts at 10 s and is back 30 s later. Incremental: its work is parked for scheduled.rebalance.max.delay.ms (5 min) and returns to it when the delay expires; nothing else stops."},
		with(connectBase(3, 420_000), Event{AtMS: 10_000, Type: "restart", Member: "w2", DownMS: 30_000})},
	{PresetInfo{"connect-worker-lost", "connect", "Connect: a worker is lost", "w2 crashes at 10 s and never returns. After its session times out (10 s) its work is parked for 5 minutes, then spread over the survivors."},
		with(connectBase(3, 420_000), Event{AtMS: 10_000, Type: "crash", Member: "w2"})},
	{PresetInfo{"connect-rolling-restart", "connect", "Connect: rolling restart", "A deploy restarts the three workers 60 s apart, each down 20 s. Incremental: the departed workers' work is parked until the single delay expires, then returned to them; eager stops everything six times."},
		with(connectBase(3, 420_000), Event{AtMS: 10_000, Type: "rolling_restart", IntervalMS: 60_000, DownMS: 20_000})},
	{PresetInfo{"connect-add-worker", "connect", "Connect: a worker joins", "w3 joins two busy workers at 10 s. Incremental: a load-balancing revocation frees a share of connectors and tasks, handed to w3 in the follow-up round."},
		with(connectBase(2, 60_000), Event{AtMS: 10_000, Type: "join", Member: "w3"})},
	{PresetInfo{"connect-set-tasks", "connect", "Connect: a connector gets more tasks", "jdbc-sink goes from 4 to 8 tasks at 10 s (a config change). Incremental: the new tasks go to the least loaded workers, nothing running stops."},
		with(connectBase(3, 60_000), Event{AtMS: 10_000, Type: "set_tasks", Connector: "jdbc-sink", Tasks: 8})},
}

// migration is four eager range consumers going through the given bounces.
func migration(evs ...Event) Scenario {
	s := with(consumerBase(4, 12, 0), evs...)
	last := evs[len(evs)-1]
	s.DurationMS = last.AtMS + 4*last.IntervalMS + 30_000
	return s
}

func with(s Scenario, evs ...Event) Scenario {
	s.Events = evs
	return s
}

func staticOn(s Scenario) Scenario {
	s.StaticMembership = true
	return s
}

// Presets lists the named scenarios.
func Presets() []PresetInfo {
	out := make([]PresetInfo, len(presets))
	for i, p := range presets {
		out[i] = p.info
	}
	return out
}

// Preset returns a copy of the named scenario with defaults applied.
func Preset(name string) (Scenario, bool) {
	for _, p := range presets {
		if p.info.Name == name {
			return clone(p.s).WithDefaults(), true
		}
	}
	return Scenario{}, false
}

func clone(s Scenario) Scenario {
	b, _ := json.Marshal(s)
	var out Scenario
	_ = json.Unmarshal(b, &out)
	return out
}

// Variant sets the protocol (and a fitting assignor) from a label such as "eager",
// "cooperative", "consumer", "incremental", optionally suffixed "+static".
func Variant(s Scenario, label string) (Scenario, error) {
	s = clone(s)
	proto, static := strings.CutSuffix(label, "+static")
	if static && s.Kind == "connect" {
		return s, fmt.Errorf("label %q: Connect workers have no static membership", label)
	}
	s.StaticMembership = static
	switch {
	case s.Kind == "consumer" && proto == "eager":
		if s.Protocol != "eager" || s.Assignor == "" {
			s.Assignor = "range"
		}
	case s.Kind == "consumer" && proto == "cooperative":
		s.Assignor = "cooperative-sticky"
	case s.Kind == "consumer" && proto == "consumer":
		// KIP-848 clients name no assignors: the broker's assignor applies to every member.
		s.Assignor, s.Assignors = "uniform", nil
		for i := range s.Events {
			s.Events[i].Assignors = nil
		}
	case s.Kind == "connect" && (proto == "eager" || proto == "incremental"):
		s.Assignor = ""
	default:
		want := "eager, cooperative or consumer"
		if s.Kind == "connect" {
			want = "eager or incremental"
		}
		return s, fmt.Errorf("label %q does not fit kind %s (use %s, optionally +static)", label, s.Kind, want)
	}
	if s.Protocol != proto {
		// Timing defaults differ between protocols; drop the filled-in ones so the new
		// protocol's defaults apply, keeping any the caller set.
		s.Config = keepOverrides(s.Config, s.Kind, s.Protocol)
	}
	s.Protocol = proto
	return s.WithDefaults(), nil
}

// keepOverrides clears config fields equal to the defaults of the old protocol.
func keepOverrides(c Config, kind, proto string) Config {
	d := defaults(kind, proto)
	clearIf := func(p **int64, def *int64) {
		if *p != nil && **p == *def {
			*p = nil
		}
	}
	clearIf(&c.SessionTimeoutMS, d.SessionTimeoutMS)
	clearIf(&c.HeartbeatIntervalMS, d.HeartbeatIntervalMS)
	clearIf(&c.RebalanceTimeoutMS, d.RebalanceTimeoutMS)
	clearIf(&c.InitialRebalanceDelayMS, d.InitialRebalanceDelayMS)
	clearIf(&c.ScheduledRebalanceMaxDelayMS, d.ScheduledRebalanceMaxDelayMS)
	clearIf(&c.RevokeMS, d.RevokeMS)
	clearIf(&c.StartMS, d.StartMS)
	clearIf(&c.RPCMS, d.RPCMS)
	return c
}

// CardScenarios builds one validated scenario per compare label from a preset and overrides
// (JSON field names; unknown fields rejected).
func CardScenarios(name string, compare []string, overrides map[string]any) ([]Scenario, error) {
	base, ok := Preset(name)
	if !ok {
		return nil, fmt.Errorf("unknown preset %q", name)
	}
	if len(overrides) > 0 {
		var err error
		if base, err = applyOverrides(base, overrides); err != nil {
			return nil, err
		}
	}
	if len(compare) == 0 {
		compare = []string{base.Protocol}
		if base.StaticMembership {
			compare[0] += "+static"
		}
	}
	out := make([]Scenario, 0, len(compare))
	for i, label := range compare {
		v, err := Variant(base, label)
		if err == nil {
			err = v.Validate(CLILimits)
		}
		if err != nil {
			return nil, fmt.Errorf("compare[%d]: %w", i, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func applyOverrides(base Scenario, overrides map[string]any) (Scenario, error) {
	// Round-trip through JSON so overrides use the scenario's field names and types.
	b, _ := json.Marshal(base)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	keys := make([]string, 0, len(overrides))
	for k := range overrides {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k == "config" {
			cfg, _ := m["config"].(map[string]any)
			if over, ok := overrides[k].(map[string]any); ok && cfg != nil {
				for ck, cv := range over {
					cfg[ck] = cv
				}
				continue
			}
		}
		m[k] = overrides[k]
	}
	b, err := json.Marshal(m)
	if err != nil {
		return base, fmt.Errorf("overrides: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		fe := jsonFieldError(err).(*FieldError)
		return base, fmt.Errorf("overrides.%s: %s", fe.Field, fe.Msg)
	}
	s = s.WithDefaults()
	if err := s.Validate(CLILimits); err != nil {
		if fe, ok := err.(*FieldError); ok {
			return base, fmt.Errorf("overrides.%s: %s", fe.Field, fe.Msg)
		}
		return base, err
	}
	return s, nil
}
