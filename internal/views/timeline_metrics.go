package views

import (
	"fmt"
	"strings"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// MetricDef is one row of the metrics table with its one-line definition.
type MetricDef struct {
	ID, Name, Def string
	Format        func(rebalance.Metrics) string
	Value         func(rebalance.Metrics) float64 // the raw number, for data-value
}

// MetricDefs are the metrics shown under every figure, in table order.
var MetricDefs = []MetricDef{
	{"rebalances", "Rebalances", "rounds the group went through: JoinGroup and SyncGroup rounds, or KIP-848 target assignment epochs",
		func(m rebalance.Metrics) string { return fmt.Sprint(m.Rebalances) },
		func(m rebalance.Metrics) float64 { return float64(m.Rebalances) }},
	{"stw", "Stop-the-world rebalances", "rounds in which every member gave up everything it owned",
		func(m rebalance.Metrics) string { return fmt.Sprint(m.StopTheWorldRebalances) },
		func(m rebalance.Metrics) float64 { return float64(m.StopTheWorldRebalances) }},
	{"availability", "Availability", "share of all item-time spent processing, over every item and the whole run",
		func(m rebalance.Metrics) string { return fmt.Sprintf("%.2f %%", m.Availability*100) },
		func(m rebalance.Metrics) float64 { return m.Availability }},
	{"downtime", "Downtime (item-seconds)", "time items spent not processing, added up over all items",
		func(m rebalance.Metrics) string { return fmt.Sprintf("%.1f", float64(m.DowntimeItemMS)/1000) },
		func(m rebalance.Metrics) float64 { return float64(m.DowntimeItemMS) }},
	{"pause", "Longest pause", "the longest single stretch one item spent not processing",
		func(m rebalance.Metrics) string { return Secs(m.MaxPauseMS) },
		func(m rebalance.Metrics) float64 { return float64(m.MaxPauseMS) }},
	{"paused", "Paused items", "items that stopped at least once after they had started",
		func(m rebalance.Metrics) string { return fmt.Sprint(m.PausedItems) },
		func(m rebalance.Metrics) float64 { return float64(m.PausedItems) }},
	{"stopped", "Whole group stopped", "how long no item at all was processing: the world stopped",
		func(m rebalance.Metrics) string { return Secs(m.AllStoppedMS) },
		func(m rebalance.Metrics) float64 { return float64(m.AllStoppedMS) }},
	{"moved", "Moved", "hand-overs of an item to a different owner than its last one",
		func(m rebalance.Metrics) string { return fmt.Sprint(m.Moved) },
		func(m rebalance.Metrics) float64 { return float64(m.Moved) }},
	{"wasted", "Wasted moves", "items revoked and then given straight back to the same owner",
		func(m rebalance.Metrics) string { return fmt.Sprint(m.WastedMoves) },
		func(m rebalance.Metrics) float64 { return float64(m.WastedMoves) }},
}

// StateDefs explain each segment state, for the legend.
var StateDefs = [][2]string{
	{rebalance.StateProcessing, "processing: the owner (its colour) consumes it"},
	{rebalance.StateRevoking, "revoking: the owner finishes, commits and gives it up"},
	{rebalance.StateUnowned, "unowned: nobody processes it (grey; in a member's colour while the group still assigns it to that departed member, until its session times out; Connect work parked by the scheduled rebalance delay is unowned too)"},
	{rebalance.StateStarting, "starting: the new owner has it and is warming up"},
}

// MetricValues maps a result onto the names expectations use (deck.ExpectMetrics).
func MetricValues(r *rebalance.Result) map[string]float64 {
	m := r.Metrics
	parked := map[string]bool{}
	for _, rd := range r.Rounds {
		for _, it := range rd.Parked {
			parked[it] = true
		}
	}
	return map[string]float64{
		"rebalances": float64(m.Rebalances), "stop_the_world_rebalances": float64(m.StopTheWorldRebalances),
		"availability": m.Availability, "downtime_item_ms": float64(m.DowntimeItemMS), "max_pause_ms": float64(m.MaxPauseMS),
		"moved": float64(m.Moved), "wasted_moves": float64(m.WastedMoves), "time_to_stable_ms": float64(m.TimeToStableMS),
		"violations": float64(m.Violations), "paused_items": float64(PausedItems(r)), "episodes": float64(len(Episodes(r))),
		"parked": float64(len(parked)), "all_stopped_ms": float64(m.AllStoppedMS),
	}
}

// PausedItems counts the items that stopped processing at some point after they had started.
func PausedItems(r *rebalance.Result) int { return r.Metrics.PausedItems }

// Why explains comparisons that contradict the naive expectation that the incremental
// protocol is better on every metric: a longer worst pause, or more rebalances.
func Why(vs []SimVariant) []string {
	var out []string
	for _, a := range vs {
		for _, b := range vs {
			if a.Label == b.Label || !strings.HasPrefix(b.Label, "eager") || strings.HasPrefix(a.Label, "eager") {
				continue
			}
			ma, mb := a.Result.Metrics, b.Result.Metrics
			pa, pb := PausedItems(a.Result), PausedItems(b.Result)
			if ma.MaxPauseMS > mb.MaxPauseMS {
				also := "."
				if pa < pb {
					also = fmt.Sprintf(", but only %d of %d items pause at all, against %d under %s.", pa, len(a.Result.Timeline), pb, b.Label)
				}
				out = append(out, fmt.Sprintf("Why is %s's longest pause longer (%s against %s)? %s%s",
					a.Label, Secs(ma.MaxPauseMS), Secs(mb.MaxPauseMS), waitReason(a), also))
			}
			if ma.Rebalances > mb.Rebalances {
				out = append(out, fmt.Sprintf("Why does %s count more rebalances (%d against %d)? %s; each round pauses only what moves.",
					a.Label, ma.Rebalances, mb.Rebalances, roundsReason(a)))
			}
		}
	}
	return out
}

// waitReason says what the moved items wait for, from the longest episode's rounds.
func waitReason(v SimVariant) string {
	proto, _, _ := strings.Cut(v.Label, "+")
	most := 0
	for _, ep := range Episodes(v.Result) {
		most = max(most, len(ep.Rounds))
	}
	switch {
	case proto == "consumer":
		return "The moved partitions wait for their old owner to release them at its next poll after a heartbeat tells it, and for the new owner's next heartbeat and poll to take them"
	case len(v.Result.Rounds) > 0 && hasParked(v.Result):
		return "Work of a departed worker is parked for scheduled.rebalance.max.delay.ms before it is reassigned"
	case most > 1:
		return fmt.Sprintf("The moved items wait for %d rounds: revoked at the end of round 1, assigned only in round %d, which the other members join at their next heartbeat (and, when busy, their next poll)", most, most)
	}
	return "The moved items wait for their new owner to start them"
}

func roundsReason(v SimVariant) string {
	proto, _, _ := strings.Cut(v.Label, "+")
	if proto == "consumer" {
		return "Each target assignment epoch counts as one"
	}
	return "A change that moves items takes two rounds, one to revoke and one to assign"
}

func hasParked(r *rebalance.Result) bool {
	for _, rd := range r.Rounds {
		if len(rd.Parked) > 0 {
			return true
		}
	}
	return false
}
