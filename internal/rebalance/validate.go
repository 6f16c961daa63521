package rebalance

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
)

var nameRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)

// Validate checks a scenario (with defaults applied) against the limits; the error names the field.
func (s Scenario) Validate(lim Limits) error {
	switch s.Kind {
	case "consumer":
		if s.Protocol != "eager" && s.Protocol != "cooperative" && s.Protocol != "consumer" {
			return ferr("protocol", "must be eager, cooperative or consumer for kind consumer, not %q", s.Protocol)
		}
		ok := map[string][]string{"eager": {"range", "roundrobin", "sticky"}, "cooperative": {"cooperative-sticky"}, "consumer": {"uniform", "range"}}[s.Protocol]
		if !slices.Contains(ok, s.Assignor) {
			return ferr("assignor", "protocol %s takes %s, not %q", s.Protocol, strings.Join(ok, " or "), s.Assignor)
		}
		if len(s.Connectors) > 0 {
			return ferr("connectors", "only for kind connect")
		}
		if len(s.Topics) == 0 {
			return ferr("topics", "at least one topic is required")
		}
	case "connect":
		if s.Protocol != "eager" && s.Protocol != "incremental" {
			return ferr("protocol", "must be eager or incremental for kind connect, not %q", s.Protocol)
		}
		if s.Assignor != "" {
			return ferr("assignor", "Connect has no assignor choice; leave it empty")
		}
		if len(s.Topics) > 0 {
			return ferr("topics", "only for kind consumer (use connectors)")
		}
		if s.StaticMembership {
			return ferr("static_membership", "Connect workers have no static membership (group.instance.id)")
		}
		if len(s.Connectors) == 0 {
			return ferr("connectors", "at least one connector is required")
		}
	default:
		return ferr("kind", "must be consumer or connect, not %q", s.Kind)
	}
	if s.DurationMS <= 0 || s.DurationMS > lim.MaxDurationMS {
		return ferr("duration_ms", "must be between 1 and %d", lim.MaxDurationMS)
	}
	if err := s.Config.validate(s); err != nil {
		return err
	}
	items := 0
	groups, gname := s.Topics, "topics"
	if s.Kind == "connect" {
		groups, gname = s.Connectors, "connectors"
	}
	names := map[string]bool{}
	for _, t := range slices.Sorted(maps.Keys(groups)) {
		n := groups[t]
		if !nameRE.MatchString(t) {
			return ferr(gname+"."+t, "names use letters, digits, '.', '_' and '-' (at most 100)")
		}
		if n < 0 || (s.Kind == "consumer" && n < 1) || n > lim.MaxItems {
			return ferr(gname+"."+t, "count must be between %d and %d", boolInt(s.Kind == "consumer"), lim.MaxItems)
		}
		items += n
		if s.Kind == "connect" {
			items++
		}
	}
	if s.Kind == "connect" {
		for _, it := range itemNames(s.Kind, groups) {
			if names[it] {
				return ferr("connectors", "item name %q is used twice (a connector is named like another's task)", it)
			}
			names[it] = true
		}
	}
	if len(s.Events) > lim.MaxEvents {
		return ferr("events", "at most %d events", lim.MaxEvents)
	}
	present := map[string]bool{}
	all := map[string]bool{}
	for i, m := range s.Members {
		if !nameRE.MatchString(m) {
			return ferr(fmt.Sprintf("members[%d]", i), "names use letters, digits, '.', '_' and '-' (at most 100)")
		}
		if present[m] {
			return ferr(fmt.Sprintf("members[%d]", i), "%q is listed twice", m)
		}
		present[m], all[m] = true, true
	}
	if err := s.validateInitial(present, names, groups); err != nil {
		return err
	}
	grow := map[string]int{}
	for k, v := range groups {
		grow[k] = v
	}
	order := make([]int, len(s.Events))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return s.Events[order[a]].AtMS < s.Events[order[b]].AtMS })
	for _, i := range order {
		if err := s.validateEvent(i, present, all, grow); err != nil {
			return err
		}
	}
	if err := s.validateAssignors(all); err != nil {
		return err
	}
	total := 0
	for _, v := range grow {
		total += v
		if s.Kind == "connect" {
			total++
		}
	}
	if max(total, items) > lim.MaxItems {
		return ferr(gname, "at most %d items in all (partitions, or connectors plus tasks)", lim.MaxItems)
	}
	if len(all) > lim.MaxMembers {
		return ferr("members", "at most %d members in all", lim.MaxMembers)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (c Config) validate(s Scenario) error {
	type f struct {
		name     string
		v        *int64
		min, max int64
	}
	fs := []f{
		{"session_timeout_ms", c.SessionTimeoutMS, 1, 1_800_000},
		{"heartbeat_interval_ms", c.HeartbeatIntervalMS, 1, 1_800_000},
		{"rebalance_timeout_ms", c.RebalanceTimeoutMS, 1, 3_600_000},
		{"initial_rebalance_delay_ms", c.InitialRebalanceDelayMS, 0, 3_600_000},
		{"scheduled_rebalance_max_delay_ms", c.ScheduledRebalanceMaxDelayMS, 0, 24 * 3_600_000},
		{"revoke_ms", c.RevokeMS, 0, 3_600_000},
		{"start_ms", c.StartMS, 0, 3_600_000},
		{"rpc_ms", c.RPCMS, 0, 60_000},
	}
	if s.Kind == "consumer" {
		fs = append(fs, f{"auto_commit_interval_ms", c.AutoCommitIntervalMS, 0, 3_600_000}, f{"records_per_sec", c.RecordsPerSec, 0, 1_000_000},
			f{"processing_ms", c.ProcessingMS, 0, MaxProcessingMS})
	} else if c.AutoCommitIntervalMS != nil || c.RecordsPerSec != nil || c.ProcessingMS != nil {
		field := "auto_commit_interval_ms"
		switch {
		case c.ProcessingMS != nil:
			return ferr("config.processing_ms", "only for kind consumer (Connect tasks do not poll through the group)")
		case c.AutoCommitIntervalMS == nil:
			field = "records_per_sec"
		}
		return ferr("config."+field, "only for kind consumer (Connect commits on its own schedule)")
	}
	for _, x := range fs {
		if x.v == nil {
			return ferr("config."+x.name, "missing (call WithDefaults)")
		}
		if *x.v < x.min || *x.v > x.max {
			return ferr("config."+x.name, "must be between %d and %d", x.min, x.max)
		}
	}
	if err := c.validatePerMember(s); err != nil {
		return err
	}
	if *c.HeartbeatIntervalMS >= *c.SessionTimeoutMS {
		return ferr("config.heartbeat_interval_ms", "must be below session_timeout_ms (%d)", *c.SessionTimeoutMS)
	}
	if s.Kind == "consumer" && *c.ScheduledRebalanceMaxDelayMS != 0 {
		return ferr("config.scheduled_rebalance_max_delay_ms", "only for kind connect")
	}
	return nil
}

func (s Scenario) validateInitial(present, connectNames map[string]bool, groups map[string]int) error {
	if len(s.InitialAssignment) == 0 {
		return nil
	}
	valid := connectNames
	if s.Kind == "consumer" {
		valid = nil
	}
	seen := map[string]bool{}
	for _, m := range slices.Sorted(maps.Keys(s.InitialAssignment)) {
		if !present[m] {
			return ferr("initial_assignment."+m, "not in members")
		}
		for j, it := range s.InitialAssignment[m] {
			field := fmt.Sprintf("initial_assignment.%s[%d]", m, j)
			if valid != nil && !valid[it] {
				return ferr(field, "unknown item %q", it)
			}
			if valid == nil && !validPartition(it, groups) {
				return ferr(field, "unknown partition %q (items are topic-N)", it)
			}
			if seen[it] {
				return ferr(field, "%q is owned twice", it)
			}
			seen[it] = true
		}
	}
	return nil
}

func validPartition(it string, topics map[string]int) bool {
	i := strings.LastIndexByte(it, '-')
	if i < 0 {
		return false
	}
	n, ok := topics[it[:i]]
	if !ok {
		return false
	}
	var p int
	if _, err := fmt.Sscanf(it[i+1:], "%d", &p); err != nil || fmt.Sprint(p) != it[i+1:] {
		return false
	}
	return p >= 0 && p < n
}

func (s Scenario) validateEvent(i int, present, all map[string]bool, grow map[string]int) error {
	e := s.Events[i]
	p := fmt.Sprintf("events[%d].", i)
	if e.AtMS < 0 || e.AtMS > s.DurationMS {
		return ferr(p+"at_ms", "must be within duration_ms (%d)", s.DurationMS)
	}
	if !slices.Contains(eventTypes, e.Type) {
		return ferr(p+"type", "unknown event type %q (one of %s)", e.Type, strings.Join(eventTypes, ", "))
	}
	needMember := e.Type != "rolling_restart" && e.Type != "add_partitions" && e.Type != "set_tasks"
	if needMember && e.Member == "" {
		return ferr(p+"member", "required for %s", e.Type)
	}
	if !needMember && e.Member != "" {
		return ferr(p+"member", "not used by %s", e.Type)
	}
	if e.Member != "" && !nameRE.MatchString(e.Member) {
		return ferr(p+"member", "names use letters, digits, '.', '_' and '-'")
	}
	if e.DownMS < 0 || e.DownMS > s.DurationMS {
		return ferr(p+"down_ms", "must be between 0 and duration_ms")
	}
	if e.IntervalMS < 0 || e.IntervalMS > s.DurationMS {
		return ferr(p+"interval_ms", "must be between 0 and duration_ms")
	}
	if e.Count < 0 || e.Count > 1000 {
		return ferr(p+"count", "must be between 1 and 1000")
	}
	if e.DurationMS < 0 || e.DurationMS > s.DurationMS {
		return ferr(p+"duration_ms", "must be between 0 and the scenario's duration_ms")
	}
	unused := func(field string, set bool) error {
		if set {
			return ferr(p+field, "not used by %s", e.Type)
		}
		return nil
	}
	for _, u := range []struct {
		f   string
		set bool
		ok  []string
	}{
		{"down_ms", e.DownMS != 0, []string{"restart", "rolling_restart", "flap"}},
		{"interval_ms", e.IntervalMS != 0, []string{"rolling_restart", "flap"}},
		{"count", e.Count != 0, []string{"flap"}},
		{"duration_ms", e.DurationMS != 0, []string{"slow_poll"}},
		{"topic", e.Topic != "", []string{"add_partitions"}},
		{"partitions", e.Partitions != 0, []string{"add_partitions"}},
		{"connector", e.Connector != "", []string{"set_tasks"}},
		{"tasks", e.Tasks != 0, []string{"set_tasks"}},
		{"assignors", e.Assignors != nil, []string{"join", "restart", "rolling_restart"}},
	} {
		if !slices.Contains(u.ok, e.Type) {
			if err := unused(u.f, u.set); err != nil {
				return err
			}
		}
	}
	if e.Assignors != nil {
		if err := s.checkAssignorList(p+"assignors", e.Assignors); err != nil {
			return err
		}
	}
	switch e.Type {
	case "join":
		if present[e.Member] {
			return ferr(p+"member", "%q is already in the group at %d ms", e.Member, e.AtMS)
		}
		present[e.Member], all[e.Member] = true, true
	case "leave", "crash":
		if !present[e.Member] {
			return ferr(p+"member", "%q is not in the group at %d ms", e.Member, e.AtMS)
		}
		delete(present, e.Member)
	case "restart", "slow_poll", "flap":
		if !present[e.Member] {
			return ferr(p+"member", "%q is not in the group at %d ms", e.Member, e.AtMS)
		}
		if e.Type == "slow_poll" {
			if s.Kind != "consumer" {
				return ferr(p+"type", "slow_poll applies to kind consumer")
			}
			if e.DurationMS <= 0 {
				return ferr(p+"duration_ms", "required: how long the poll loop is stuck")
			}
		}
		if e.Type == "flap" && e.DownMS >= e.IntervalMS {
			return ferr(p+"down_ms", "must be below interval_ms (%d)", e.IntervalMS)
		}
	case "rolling_restart":
		if len(present) == 0 {
			return ferr(p+"type", "no members to restart at %d ms", e.AtMS)
		}
	case "add_partitions":
		if s.Kind != "consumer" {
			return ferr(p+"type", "add_partitions applies to kind consumer (use set_tasks)")
		}
		cur, ok := grow[e.Topic]
		if !ok {
			return ferr(p+"topic", "unknown topic %q", e.Topic)
		}
		if e.Partitions <= cur {
			return ferr(p+"partitions", "the new partition count must exceed %d (partitions can only be added)", cur)
		}
		grow[e.Topic] = e.Partitions
	case "set_tasks":
		if s.Kind != "connect" {
			return ferr(p+"type", "set_tasks applies to kind connect")
		}
		if _, ok := grow[e.Connector]; !ok {
			return ferr(p+"connector", "unknown connector %q", e.Connector)
		}
		if e.Tasks < 0 || e.Tasks > 1_000_000 {
			return ferr(p+"tasks", "must be between 0 and 1000000")
		}
		if e.Tasks > grow[e.Connector] {
			grow[e.Connector] = e.Tasks
		}
	}
	return nil
}

// itemNames lists the items of topics (topic-N) or connectors (name, name-N) in canonical order.
func itemNames(kind string, groups map[string]int) []string {
	var out []string
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		if kind == "connect" {
			out = append(out, g)
		}
		for i := 0; i < groups[g]; i++ {
			out = append(out, fmt.Sprintf("%s-%d", g, i))
		}
	}
	return out
}

// MaxProcessingMS bounds processing_ms: a batch longer than max.poll.interval.ms's default
// (5 minutes) would make the member leave the group, which slow_poll models on its own.
const MaxProcessingMS = 300_000

// maxPerMember bounds config.per_member: overrides are for the few members a story singles out.
const maxPerMember = 50

func (c Config) validatePerMember(s Scenario) error {
	if len(c.PerMember) == 0 {
		return nil
	}
	if len(c.PerMember) > maxPerMember {
		return ferr("config.per_member", "at most %d members", maxPerMember)
	}
	named := map[string]bool{}
	for _, m := range s.Members {
		named[m] = true
	}
	for _, e := range s.Events {
		if e.Member != "" {
			named[e.Member] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.PerMember)) {
		p := "config.per_member." + name
		if !named[name] {
			return ferr(p, "not a member of the scenario (members or an event's member)")
		}
		o := c.PerMember[name]
		if o.ProcessingMS != nil && s.Kind != "consumer" {
			return ferr(p+".processing_ms", "only for kind consumer")
		}
		for _, x := range []struct {
			f   string
			v   *int64
			max int64
		}{{"processing_ms", o.ProcessingMS, MaxProcessingMS}, {"revoke_ms", o.RevokeMS, 3_600_000}, {"start_ms", o.StartMS, 3_600_000}} {
			if x.v != nil && (*x.v < 0 || *x.v > x.max) {
				return ferr(p+"."+x.f, "must be between 0 and %d", x.max)
			}
		}
	}
	return nil
}
