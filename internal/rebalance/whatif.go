package rebalance

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// WhatIf is a learner's change to a card's regime: a few numbers, each nil when not asked for.
// Apply re-aims a scenario at them; the result is validated like any submitted scenario.
type WhatIf struct {
	Members                               *int
	ProcessingMS, RevokeMS, StartMS       *int64
	SessionTimeoutMS, ScheduledMaxDelayMS *int64
	SlowProcessingMS                      *int64 // the per_member members' own batch time
}

// WhatIfParams are the query parameters a what-if reads, in form order.
var WhatIfParams = []string{"members", "processing_ms", "slow_processing_ms", "revoke_ms", "start_ms", "session_timeout_ms", "scheduled_rebalance_max_delay_ms"}

// ParseWhatIf reads the parameters get returns (a URL query's Get); empty ones are not asked
// for. An error names the parameter.
func ParseWhatIf(get func(string) string, lim Limits) (WhatIf, bool, error) {
	var w WhatIf
	asked := false
	for _, p := range WhatIfParams {
		v := strings.TrimSpace(get(p))
		if v == "" {
			continue
		}
		asked = true
		n, err := strconv.ParseInt(v, 10, 64)
		hi := int64(3_600_000)
		switch p {
		case "members":
			hi = int64(lim.MaxMembers)
		case "processing_ms", "slow_processing_ms":
			hi = MaxProcessingMS
		case "session_timeout_ms":
			hi = 1_800_000
		case "scheduled_rebalance_max_delay_ms":
			hi = 24 * 3_600_000
		}
		lo := int64(0)
		if p == "members" || p == "session_timeout_ms" {
			lo = 1
		}
		if err != nil || n < lo || n > hi {
			return w, true, ferr(p, "must be a whole number from %d to %d", lo, hi)
		}
		switch p {
		case "members":
			k := int(n)
			w.Members = &k
		case "processing_ms":
			w.ProcessingMS = &n
		case "slow_processing_ms":
			w.SlowProcessingMS = &n
		case "revoke_ms":
			w.RevokeMS = &n
		case "start_ms":
			w.StartMS = &n
		case "session_timeout_ms":
			w.SessionTimeoutMS = &n
		case "scheduled_rebalance_max_delay_ms":
			w.ScheduledMaxDelayMS = &n
		}
	}
	return w, asked, nil
}

// Apply returns sc changed as w asks. Members grow with new names or shrink from the end,
// keeping every member an event or an override names, so the card's story still happens.
func (w WhatIf) Apply(sc Scenario) (Scenario, error) {
	sc = clone(sc)
	c := &sc.Config
	set := func(dst **int64, v *int64) {
		if v != nil {
			x := *v
			*dst = &x
		}
	}
	if sc.Kind == "consumer" {
		set(&c.ProcessingMS, w.ProcessingMS)
	} else if w.ProcessingMS != nil || w.SlowProcessingMS != nil {
		return sc, ferr("processing_ms", "only for consumer groups (Connect tasks do not poll through the group)")
	}
	set(&c.RevokeMS, w.RevokeMS)
	set(&c.StartMS, w.StartMS)
	set(&c.SessionTimeoutMS, w.SessionTimeoutMS)
	if w.ScheduledMaxDelayMS != nil {
		if sc.Kind != "connect" {
			return sc, ferr("scheduled_rebalance_max_delay_ms", "only for Kafka Connect")
		}
		set(&c.ScheduledRebalanceMaxDelayMS, w.ScheduledMaxDelayMS)
	}
	if w.SlowProcessingMS != nil {
		if len(c.PerMember) == 0 {
			return sc, ferr("slow_processing_ms", "this scenario has no member with costs of its own")
		}
		for name, o := range c.PerMember {
			set(&o.ProcessingMS, w.SlowProcessingMS)
			c.PerMember[name] = o
		}
	}
	if c.HeartbeatIntervalMS != nil && c.SessionTimeoutMS != nil && *c.HeartbeatIntervalMS >= *c.SessionTimeoutMS {
		return sc, ferr("session_timeout_ms", "must be above the heartbeat interval (%d ms)", *c.HeartbeatIntervalMS)
	}
	if w.Members != nil {
		ms, err := resize(sc, *w.Members)
		if err != nil {
			return sc, err
		}
		sc.Members = ms
	}
	return sc, nil
}

// resize gives sc n starting members. New ones are named after the first member's prefix
// (m, w) with numbers no member or event uses; removed ones come from the end of the list and
// are never one an event, an override or the initial assignment names.
func resize(sc Scenario, n int) ([]string, error) {
	ms := slices.Clone(sc.Members)
	named := map[string]bool{}
	for _, e := range sc.Events {
		named[e.Member] = true
	}
	for m := range sc.Config.PerMember {
		named[m] = true
	}
	for m := range sc.InitialAssignment {
		named[m] = true
	}
	for m := range sc.Assignors {
		named[m] = true
	}
	if n < len(ms) {
		var keep []string
		drop := len(ms) - n
		for i := len(ms) - 1; i >= 0; i-- {
			if drop > 0 && !named[ms[i]] {
				drop--
				continue
			}
			keep = append(keep, ms[i])
		}
		if drop > 0 {
			return nil, ferr("members", "at least %d: the scenario's events name that many", n+drop)
		}
		slices.Reverse(keep)
		return keep, nil
	}
	prefix := "m"
	if sc.Kind == "connect" {
		prefix = "w"
	}
	used := map[string]bool{}
	for _, m := range ms {
		used[m] = true
	}
	for m := range named {
		used[m] = true
	}
	for k := 1; len(ms) < n; k++ {
		if name := fmt.Sprintf("%s%d", prefix, k); !used[name] {
			ms = append(ms, name)
			used[name] = true
		}
	}
	return ms, nil
}

// WhatIfValues are a scenario's current values for the what-if's parameters, for the form.
func WhatIfValues(sc Scenario) map[string]string {
	sc = sc.WithDefaults()
	c := sc.Config
	out := map[string]string{"members": strconv.Itoa(len(sc.Members))}
	put := func(k string, v *int64) {
		if v != nil {
			out[k] = strconv.FormatInt(*v, 10)
		}
	}
	put("processing_ms", c.ProcessingMS)
	put("revoke_ms", c.RevokeMS)
	put("start_ms", c.StartMS)
	put("session_timeout_ms", c.SessionTimeoutMS)
	if sc.Kind == "connect" {
		put("scheduled_rebalance_max_delay_ms", c.ScheduledRebalanceMaxDelayMS)
	}
	for _, name := range slices.Sorted(maps.Keys(c.PerMember)) {
		if p := c.PerMember[name].ProcessingMS; p != nil {
			put("slow_processing_ms", p)
			break
		}
	}
	return out
}
