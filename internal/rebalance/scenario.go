// Package rebalance simulates Kafka group rebalancing (consumer groups and Kafka Connect) on a
// virtual clock. It is pure: no I/O, no clock read at all, deterministic per seed; budgets are
// counted in steps, segments and rounds.
//
// The model, in brief: members learn of a rebalance on their next heartbeat (a classic member's
// heartbeat timer restarts at each JoinGroup response, so a group that rebalanced together
// heartbeats together; the seed draws the initial phase); a join phase ends when every known
// member has rejoined
// or at the rebalance timeout; a crashed member is noticed one session timeout after its last
// heartbeat; eager members revoke everything before JoinGroup; cooperative members revoke only
// what the assignment withholds, then rejoin for a follow-up round; each consumer runs EAGER
// unless every assignor in its list supports COOPERATIVE, and the coordinator picks the assignor
// by Kafka's vote (assignors.go). KIP-848 members reconcile on
// their own heartbeats against a broker-side target. Connect (KIP-415) parks lost work until
// scheduled.rebalance.max.delay.ms expires, then gives it to the workers seen empty meanwhile.
// revoke_ms, start_ms and rpc_ms are not Kafka settings but the cost of a commit and callback,
// of starting work, and of one request; processing_ms is how long a consumer works on a batch
// between polls, and since a consumer's callbacks and JoinGroup run inside poll(), a busy member
// answers a rebalance only at its next poll (per_member overrides these costs for one member).
package rebalance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Scenario describes a group, its configuration and what happens to it.
type Scenario struct {
	Kind              string              `json:"kind"`
	Protocol          string              `json:"protocol"`
	Assignor          string              `json:"assignor,omitempty"`
	StaticMembership  bool                `json:"static_membership"`
	Topics            map[string]int      `json:"topics,omitempty"`
	Connectors        map[string]int      `json:"connectors,omitempty"`
	Members           []string            `json:"members"`
	InitialAssignment map[string][]string `json:"initial_assignment,omitempty"`
	// Assignors gives members their own assignor lists, in preference order (classic consumer
	// protocols only); a member not listed uses [Assignor].
	Assignors  map[string][]string `json:"assignors,omitempty"`
	Config     Config              `json:"config"`
	Events     []Event             `json:"events"`
	DurationMS int64               `json:"duration_ms"`
	Seed       int64               `json:"seed"`
}

// Config holds timings in milliseconds. A nil field takes the default for the kind and protocol.
type Config struct {
	SessionTimeoutMS             *int64 `json:"session_timeout_ms,omitempty"`
	HeartbeatIntervalMS          *int64 `json:"heartbeat_interval_ms,omitempty"`
	RebalanceTimeoutMS           *int64 `json:"rebalance_timeout_ms,omitempty"`
	InitialRebalanceDelayMS      *int64 `json:"initial_rebalance_delay_ms,omitempty"`
	ScheduledRebalanceMaxDelayMS *int64 `json:"scheduled_rebalance_max_delay_ms,omitempty"`
	RevokeMS                     *int64 `json:"revoke_ms,omitempty"`
	StartMS                      *int64 `json:"start_ms,omitempty"`
	RPCMS                        *int64 `json:"rpc_ms,omitempty"`
	// Consumers only: offsets are committed every auto_commit_interval_ms (0: only on revoke and
	// close) and each partition brings records_per_sec, which prices what a crash re-processes.
	AutoCommitIntervalMS *int64 `json:"auto_commit_interval_ms,omitempty"`
	RecordsPerSec        *int64 `json:"records_per_sec,omitempty"`
	// ProcessingMS (consumers only) is how long the application works on each batch between
	// two polls. A consumer runs its rebalance callbacks and sends its JoinGroup from poll(),
	// so a member busy with a batch answers a rebalance only when it polls again: somewhere
	// in the batch it is on, drawn from the seed. 0: the poll loop is instant.
	ProcessingMS *int64 `json:"processing_ms,omitempty"`
	// PerMember overrides processing, revoke and start costs for the members it names (the
	// one slow member of a production story).
	PerMember map[string]MemberCosts `json:"per_member,omitempty"`
}

// MemberCosts are one member's own costs; a nil field takes the group's.
type MemberCosts struct {
	ProcessingMS *int64 `json:"processing_ms,omitempty"`
	RevokeMS     *int64 `json:"revoke_ms,omitempty"`
	StartMS      *int64 `json:"start_ms,omitempty"`
}

// Event is something that happens to the group at AtMS. Which other fields apply depends on Type.
type Event struct {
	AtMS       int64  `json:"at_ms"`
	Type       string `json:"type"`
	Member     string `json:"member,omitempty"`
	DownMS     int64  `json:"down_ms,omitempty"`
	IntervalMS int64  `json:"interval_ms,omitempty"`
	Count      int    `json:"count,omitempty"`
	DurationMS int64  `json:"duration_ms,omitempty"`
	Topic      string `json:"topic,omitempty"`
	Partitions int    `json:"partitions,omitempty"`
	Connector  string `json:"connector,omitempty"`
	Tasks      int    `json:"tasks,omitempty"`
	// Assignors is the list a member comes back with (join, restart, rolling_restart).
	Assignors []string `json:"assignors,omitempty"`
}

// Limits bound the size of a scenario (checked by Validate) and the work and memory of a run
// (counted by Run as it goes, so the package never reads a clock). A zero budget is unlimited.
type Limits struct {
	MaxMembers, MaxItems, MaxEvents int
	MaxDurationMS                   int64
	// MaxSteps bounds the work: one step per simulated event plus one per item an assignment
	// or a round's bookkeeping touches, so it tracks CPU time whatever the scenario's shape.
	MaxSteps int64
	// MaxSegments bounds the timeline: segments plus event markers recorded.
	MaxSegments int
	// MaxRounds bounds the rounds recorded; MaxRoundItems the item names their assignment,
	// revoked and added lists hold in all.
	MaxRounds, MaxRoundItems int
}

// CLILimits apply to the command line; WebLimits to scenarios submitted through the web app.
// The web budgets keep the largest result near 15 MB of JSON (a segment is about 70 bytes, a
// round's item name about 15) and a run near a second of CPU on a slow core.
var (
	CLILimits = Limits{MaxMembers: 5000, MaxItems: 1_000_000, MaxEvents: 10_000, MaxDurationMS: 24 * 3600 * 1000}
	WebLimits = Limits{MaxMembers: 200, MaxItems: 5000, MaxEvents: 200, MaxDurationMS: 2 * 3600 * 1000,
		MaxSteps: 10_000_000, MaxSegments: 150_000, MaxRounds: 2_000, MaxRoundItems: 300_000}
	// CardLimits are for cards' own scenarios (trusted content, rendered by the web app): the
	// CLI's sizes with the web's budgets.
	CardLimits = Limits{MaxMembers: CLILimits.MaxMembers, MaxItems: CLILimits.MaxItems, MaxEvents: CLILimits.MaxEvents,
		MaxDurationMS: CLILimits.MaxDurationMS, MaxSteps: WebLimits.MaxSteps, MaxSegments: WebLimits.MaxSegments,
		MaxRounds: WebLimits.MaxRounds, MaxRoundItems: WebLimits.MaxRoundItems}
)

// FieldError names the scenario field that is wrong, in JSON path form ("events[3].at_ms").
type FieldError struct{ Field, Msg string }

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

func ferr(field, format string, a ...any) error {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// Decode reads a scenario strictly (unknown fields are errors), applies defaults and validates it.
func Decode(r io.Reader, lim Limits) (Scenario, error) {
	var s Scenario
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return s, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, jsonFieldError(err)
	}
	if dec.More() {
		return s, ferr("scenario", "unexpected data after the JSON object")
	}
	s = s.WithDefaults()
	return s, s.Validate(lim)
}

// jsonFieldError turns encoding/json errors into FieldErrors where the field is known.
func jsonFieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return ferr(te.Field, "must be of type %s, not %s", te.Type.String(), te.Value)
	}
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		name := strings.Trim(msg[i+len("unknown field "):], `"`)
		if name == "" {
			return ferr("scenario", `unknown field ""`)
		}
		return ferr(name, "unknown field")
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return ferr("scenario", "invalid JSON at byte %d: %s", se.Offset, se.Error())
	}
	return ferr("scenario", "%s", msg)
}

func i64(v int64) *int64 { return &v }

// defaults returns Kafka's defaults for the kind and protocol; revoke, start and rpc are not Kafka
// settings but modest typical costs.
func defaults(kind, protocol string) Config {
	if kind == "connect" {
		delay := int64(300_000)
		if protocol == "eager" {
			delay = 0
		}
		return Config{i64(10_000), i64(3_000), i64(60_000), i64(3_000), i64(delay), i64(500), i64(1_000), i64(5), nil, nil, nil, nil}
	}
	if protocol == "consumer" {
		// KIP-848: heartbeat and session are broker settings; no initial delay applies.
		return Config{i64(45_000), i64(5_000), i64(300_000), i64(0), i64(0), i64(100), i64(200), i64(5), i64(5_000), i64(100), i64(0), nil}
	}
	return Config{i64(45_000), i64(3_000), i64(300_000), i64(3_000), i64(0), i64(100), i64(200), i64(5), i64(5_000), i64(100), i64(0), nil}
}

// WithDefaults fills every unset config field, the assignor, the duration and event defaults.
func (s Scenario) WithDefaults() Scenario {
	if s.Kind == "" {
		s.Kind = "consumer"
	}
	if s.Protocol == "" {
		s.Protocol = "eager"
	}
	if s.Assignor == "" {
		s.Assignor = defaultAssignor(s.Kind, s.Protocol)
	}
	d := defaults(s.Kind, s.Protocol)
	c := &s.Config
	fill := func(p **int64, v *int64) {
		if *p == nil {
			*p = i64(*v)
		}
	}
	fill(&c.SessionTimeoutMS, d.SessionTimeoutMS)
	fill(&c.HeartbeatIntervalMS, d.HeartbeatIntervalMS)
	fill(&c.RebalanceTimeoutMS, d.RebalanceTimeoutMS)
	fill(&c.InitialRebalanceDelayMS, d.InitialRebalanceDelayMS)
	fill(&c.ScheduledRebalanceMaxDelayMS, d.ScheduledRebalanceMaxDelayMS)
	fill(&c.RevokeMS, d.RevokeMS)
	fill(&c.StartMS, d.StartMS)
	fill(&c.RPCMS, d.RPCMS)
	if d.AutoCommitIntervalMS != nil {
		fill(&c.AutoCommitIntervalMS, d.AutoCommitIntervalMS)
		fill(&c.RecordsPerSec, d.RecordsPerSec)
		fill(&c.ProcessingMS, d.ProcessingMS)
	}
	if s.DurationMS == 0 {
		s.DurationMS = 600_000
	}
	if s.Members == nil {
		s.Members = []string{}
	}
	if s.Events == nil {
		s.Events = []Event{}
	}
	s.Events = append([]Event(nil), s.Events...)
	for i := range s.Events {
		e := &s.Events[i]
		switch e.Type {
		case "restart", "rolling_restart", "flap":
			if e.DownMS == 0 {
				e.DownMS = 10_000
			}
		}
		switch e.Type {
		case "rolling_restart":
			if e.IntervalMS == 0 {
				e.IntervalMS = 60_000
			}
		case "flap":
			if e.IntervalMS == 0 {
				e.IntervalMS = 30_000
			}
			if e.Count == 0 {
				e.Count = 3
			}
		}
	}
	return s
}

func defaultAssignor(kind, protocol string) string {
	switch {
	case kind == "connect":
		return ""
	case protocol == "cooperative":
		return "cooperative-sticky"
	case protocol == "consumer":
		return "uniform"
	}
	return "range"
}
