package rebalance

import (
	"fmt"
	"sort"
	"strings"
)

// Narrate describes each round in a short plain sentence, for people reading a timeline.
func Narrate(r *Result) []string {
	if r == nil {
		return nil
	}
	out := make([]string, 0, len(r.Rounds))
	pauses := pausesByRound(r)
	for i, rd := range r.Rounds {
		var b strings.Builder
		// Kafka's generation (or KIP-848's epoch) names the round here, never a round number:
		// those count from 1 within an episode and belong to the views.
		gen := "generation"
		if rd.Protocol == "consumer" {
			gen = "target epoch"
		}
		fmt.Fprintf(&b, "at %s %s; %s %d ", secs(rd.StartMS), rd.Trigger, gen, rd.Generation)
		moves := describe(rd.Revoked, "takes", "from")
		adds := describe(rd.Added, "gives", "to")
		switch {
		case rd.StopTheWorld:
			fmt.Fprintf(&b, "stops every member (eager) and ends at %s", secs(rd.EndMS))
			if adds != "" {
				b.WriteString("; it " + adds)
			}
		case moves != "" && adds != "":
			fmt.Fprintf(&b, "%s and %s", moves, adds)
		case moves != "":
			fmt.Fprintf(&b, "%s, which pauses until a follow-up round hands it out", moves)
		case adds != "":
			b.WriteString(adds)
		case len(rd.Parked) > 0:
			b.WriteString("hands nothing out")
		default:
			b.WriteString("changes nothing")
		}
		if p := pauses[i]; p > 0 {
			fmt.Fprintf(&b, "; the longest pause is %s", dur(p))
		}
		if len(rd.Parked) > 0 {
			fmt.Fprintf(&b, "; %d items are parked for scheduled.rebalance.max.delay.ms", len(rd.Parked))
		}
		switch {
		case rd.Protocol == "eager" && !rd.StopTheWorld:
			// A migration's mixed round: the vote ran, but members still listing an eager-only
			// assignor revoked everything; only the cooperative ones kept what they owned.
			b.WriteString("; members still on EAGER gave up everything, cooperative ones kept what they own")
		case !rd.StopTheWorld:
			b.WriteString("; everything else keeps processing")
		}
		out = append(out, b.String())
	}
	return out
}

// describe: "takes orders-9 from m3" / "gives 3 items to m4".
func describe(m map[string][]string, verb, prep string) string {
	if len(m) == 0 {
		return ""
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		its := m[n]
		what := strings.Join(its, ", ")
		if len(its) > 3 {
			what = fmt.Sprintf("%d items", len(its))
		}
		parts = append(parts, fmt.Sprintf("%s %s %s", what, prep, n))
		if len(parts) == 3 && len(names) > 3 {
			parts = append(parts, fmt.Sprintf("and more (%d members)", len(names)))
			break
		}
	}
	return verb + " " + strings.Join(parts, ", ")
}

// pausesByRound finds, for each round, the longest stretch out of processing overlapping it.
func pausesByRound(r *Result) []int64 {
	out := make([]int64, len(r.Rounds))
	if len(r.Rounds) > 500 || len(r.Timeline) > 20_000 {
		return out // too big to narrate pauses cheaply
	}
	note := func(from, to int64) {
		for i, rd := range r.Rounds {
			if from <= rd.EndMS && to >= rd.StartMS {
				out[i] = max(out[i], to-from)
			}
		}
	}
	for _, tl := range r.Timeline {
		start := int64(-1)
		for _, sg := range tl.Segments {
			if sg.State == StateProcessing {
				if start > 0 {
					note(start, sg.FromMS)
				}
				start = -1
				continue
			}
			if start < 0 {
				start = sg.FromMS
			}
		}
		if start > 0 {
			note(start, r.DurationMS)
		}
	}
	return out
}

func secs(ms int64) string { return fmt.Sprintf("%.1f s", float64(ms)/1000) }

func dur(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%d ms", ms)
	}
	return secs(ms)
}
