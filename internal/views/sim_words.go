package views

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// The figure in words: the regime it runs in, and the headline a learner reads first.

// dur words a duration: "200 ms", "2 s", "1.5 s", "5 min".
func dur(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms%60_000 == 0 && ms >= 120_000:
		return fmt.Sprintf("%d min", ms/60_000)
	}
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + " s"
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Regime says in one sentence the world a scenario runs in: the group's size and the costs
// that decide which protocol wins ("12 consumers, 48 partitions; each poll brings 2 s of work;
// ...").
func Regime(scs []rebalance.Scenario, labels []string) string {
	sc := scs[0].WithDefaults()
	c := sc.Config
	v := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	var parts []string
	if sc.Kind == "connect" {
		tasks := 0
		for _, n := range sc.Connectors {
			tasks += n
		}
		parts = append(parts, fmt.Sprintf("%s, %s with %s", count(len(sc.Members), "worker", "workers"),
			count(len(sc.Connectors), "connector", "connectors"), count(tasks, "task", "tasks")))
		parts = append(parts, "starting a connector or task takes "+dur(v(c.StartMS))+", stopping one "+dur(v(c.RevokeMS)))
		if d := v(c.ScheduledRebalanceMaxDelayMS); sc.Protocol == "incremental" || d > 0 {
			parts = append(parts, "lost work waits up to "+dur(d)+" (scheduled.rebalance.max.delay.ms)")
		}
	} else {
		n := 0
		for _, k := range sc.Topics {
			n += k
		}
		parts = append(parts, fmt.Sprintf("%s, %s", count(len(sc.Members), "consumer", "consumers"), count(n, "partition", "partitions")))
		if p := v(c.ProcessingMS); p > 0 {
			parts = append(parts, "each poll brings "+dur(p)+" of work")
		} else {
			parts = append(parts, "an instant poll loop")
		}
		parts = append(parts, "a revocation commits for "+dur(v(c.RevokeMS)), "a new owner warms up for "+dur(v(c.StartMS)))
		for _, name := range slices.Sorted(maps.Keys(c.PerMember)) {
			o := c.PerMember[name]
			if o.ProcessingMS != nil {
				parts = append(parts, name+" works "+dur(*o.ProcessingMS)+" batches")
			}
			if o.RevokeMS != nil {
				parts = append(parts, name+" revokes for "+dur(*o.RevokeMS))
			}
			if o.StartMS != nil {
				parts = append(parts, name+" warms up for "+dur(*o.StartMS))
			}
		}
	}
	hb := "heartbeat " + dur(v(c.HeartbeatIntervalMS))
	for i, o := range scs[1:] {
		if o := o.WithDefaults(); v(o.Config.HeartbeatIntervalMS) != v(c.HeartbeatIntervalMS) && i+1 < len(labels) {
			hb += " (" + dur(v(o.Config.HeartbeatIntervalMS)) + " under " + labels[i+1] + ")"
		}
	}
	parts = append(parts, hb+", session timeout "+dur(v(c.SessionTimeoutMS)))
	s := strings.Join(parts, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}

// Headline is the comparison in one line, the variant that loses least first: how many items
// paused, for how long on average, whether the whole group stopped, and the total lost.
func Headline(kind string, vs []SimVariant) string {
	noun := "partitions"
	if kind == "connect" {
		noun = "connectors and tasks"
	}
	order := slices.Clone(vs)
	slices.SortStableFunc(order, func(a, b SimVariant) int {
		return int(a.Result.Metrics.DowntimeItemMS - b.Result.Metrics.DowntimeItemMS)
	})
	var out []string
	for _, v := range order {
		m := v.Result.Metrics
		total := len(v.Result.Items)
		var s string
		switch {
		case m.PausedItems == 0:
			s = fmt.Sprintf("%s: none of the %d %s paused", v.Label, total, noun)
		case m.PausedItems == total:
			s = fmt.Sprintf("%s: all %d %s paused, %s each on average", v.Label, total, noun, dur1(m.DowntimeItemMS/int64(m.PausedItems)))
		default:
			s = fmt.Sprintf("%s: %d of %d %s paused, %s each on average", v.Label, m.PausedItems, total, noun, dur1(m.DowntimeItemMS/int64(m.PausedItems)))
		}
		if m.AllStoppedMS > 0 {
			s += fmt.Sprintf(", the whole group stopped for %s", dur1(m.AllStoppedMS))
		}
		if m.PausedItems > 0 {
			s += fmt.Sprintf(" (%.1f item-seconds lost)", float64(m.DowntimeItemMS)/1000)
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ") + "."
}

// dur1 is a duration rounded for reading: "15 ms", "2.1 s", "5.0 min".
func dur1(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms >= 120_000:
		return fmt.Sprintf("%.1f min", float64(ms)/60_000)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

// SimWhatIf is the what-if form under a card's figure: the regime's numbers, changed by GET.
type SimWhatIf struct {
	Action  string // the card's address
	Fields  []WhatIfField
	Err     string // the parameter's message, when the query was refused
	Changed bool   // the figure runs the learner's numbers, not the card's
}

// WhatIfField is one number of the form.
type WhatIfField struct {
	Name, Label, Value, Max, Err string
}

var whatIfLabels = map[string]string{
	"members":                          "Members",
	"processing_ms":                    "Work per batch between polls (ms)",
	"slow_processing_ms":               "The slow member's batch (ms)",
	"revoke_ms":                        "Revoke cost: commit and callback (ms)",
	"start_ms":                         "Start cost: restore and warm-up (ms)",
	"session_timeout_ms":               "Session timeout (ms)",
	"scheduled_rebalance_max_delay_ms": "Scheduled rebalance delay (ms)",
}

// NewWhatIf builds the form for scenario sc (the one the figure ran): values are the query's
// as typed when given, else the scenario's.
func NewWhatIf(action string, sc rebalance.Scenario, get func(string) string, lim rebalance.Limits) *SimWhatIf {
	cur := rebalance.WhatIfValues(sc)
	w := &SimWhatIf{Action: action}
	for _, p := range rebalance.WhatIfParams {
		val, ok := cur[p]
		if !ok {
			continue // not a knob of this scenario (Connect's delay, the slow member)
		}
		if q := strings.TrimSpace(get(p)); q != "" {
			val = q
			w.Changed = true
		}
		max := "3600000"
		switch p {
		case "members":
			max = strconv.Itoa(lim.MaxMembers)
		case "processing_ms", "slow_processing_ms":
			max = strconv.Itoa(rebalance.MaxProcessingMS)
		case "session_timeout_ms":
			max = "1800000"
		case "scheduled_rebalance_max_delay_ms":
			max = "86400000"
		}
		w.Fields = append(w.Fields, WhatIfField{Name: p, Label: whatIfLabels[p], Value: val, Max: max})
	}
	return w
}

// Refuse marks the field a refused query named, with its message.
func (w *SimWhatIf) Refuse(field, msg string) {
	w.Err = msg
	for i := range w.Fields {
		if w.Fields[i].Name == field {
			w.Fields[i].Err = msg
		}
	}
}
