package views

import (
	"fmt"
	"sort"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// An episode is one disturbance of the group, from its trigger (an event, or a round's start)
// to the last item resuming: the events, rounds and pauses that overlap or follow each other
// within episodeSlackMS (or a batch's length, since a consumer's callbacks run at its next poll
// after the round). Rounds are numbered from 1 within their episode; that number is the
// one used everywhere (caption, tooltips, rounds table, step view), see docs/card-format.md.
const episodeSlackMS = 50

// MaxCloseups caps the close-ups drawn per variant; the other episodes are listed in text.
const MaxCloseups = 3

// closeupEpisodes picks the episodes that get a close-up: all when they fit, else the first
// ones and the last, since a run usually ends in its settled state (a migration's final,
// cooperative rounds; a rolling restart's last member back).
func closeupEpisodes(eps []Episode) []Episode {
	if len(eps) <= MaxCloseups {
		return eps
	}
	out := append([]Episode{}, eps[:MaxCloseups-1]...)
	return append(out, eps[len(eps)-1])
}

// Episode is one rebalance episode of a run.
type Episode struct {
	N            int   // 1-based
	FromMS, ToMS int64 // trigger to the last item resuming
	Rounds       []int // indexes into Result.Rounds
	Trigger      string
}

// RoundRef places a round in its episode.
type RoundRef struct{ Episode, Round int }

// Episodes groups a run's events, rounds and pauses into episodes, in time order.
func Episodes(r *rebalance.Result) []Episode {
	type span struct {
		from, to int64
		round    int // -1 unless a round
		what     string
	}
	var spans []span
	for _, e := range r.Events {
		spans = append(spans, span{e.AtMS, e.AtMS, -1, eventText(e)})
	}
	for i, rd := range r.Rounds {
		spans = append(spans, span{rd.StartMS, rd.EndMS, i, rd.Trigger})
	}
	for _, it := range r.Timeline {
		seen := false // a pause is a non-processing span after the item first processed
		for _, s := range it.Segments {
			if s.State == rebalance.StateProcessing {
				seen = true
				continue
			}
			if seen && s.ToMS > s.FromMS {
				spans = append(spans, span{s.FromMS, s.ToMS, -1, ""})
			}
		}
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	slack := max(int64(episodeSlackMS), r.ProcessingMS)
	var out []Episode
	busy := false // the current episode has a round or a pause, not just an event
	for _, s := range spans {
		if n := len(out); n > 0 && s.from <= out[n-1].ToMS+slack {
			ep := &out[n-1]
			ep.ToMS = max(ep.ToMS, s.to)
			if s.round >= 0 {
				ep.Rounds = append(ep.Rounds, s.round)
			}
			if ep.Trigger == "" {
				ep.Trigger = s.what
			}
			busy = busy || s.round >= 0 || s.to > s.from
			continue
		}
		if n := len(out); n > 0 && !busy {
			out = out[:n-1] // an event that disturbed nothing is not an episode
		}
		ep := Episode{FromMS: s.from, ToMS: s.to, Trigger: s.what}
		if s.round >= 0 {
			ep.Rounds = []int{s.round}
		}
		busy = s.round >= 0 || s.to > s.from
		out = append(out, ep)
	}
	if n := len(out); n > 0 && !busy {
		out = out[:n-1]
	}
	for i := range out {
		out[i].N = i + 1
		sort.Ints(out[i].Rounds)
	}
	return out
}

// RoundRefs maps each round index to its episode and number within it.
func RoundRefs(eps []Episode, rounds int) []RoundRef {
	refs := make([]RoundRef, rounds)
	for _, ep := range eps {
		for k, ri := range ep.Rounds {
			refs[ri] = RoundRef{ep.N, k + 1}
		}
	}
	return refs
}

// RoundName is the one way a round is named: "round 2", or "episode 3, round 2" when the run
// has several episodes.
func RoundName(ref RoundRef, episodes int) string {
	if episodes > 1 {
		return fmt.Sprintf("episode %d, round %d", ref.Episode, ref.Round)
	}
	return fmt.Sprintf("round %d", ref.Round)
}

// closeWindow pads an episode so its edges show the state before and after.
func closeWindow(ep Episode, durMS int64) (from, to int64) {
	pad := max((ep.ToMS-ep.FromMS)/6, 40)
	return max(ep.FromMS-pad, 0), min(ep.ToMS+pad, durMS)
}

func eventText(e rebalance.EventMark) string {
	what := map[string]string{"join": "joins", "leave": "leaves", "crash": "crashes", "restart": "restarts", "rejoin": "comes back",
		"add_partitions": "partitions added", "set_tasks": "task count changed", "slow_poll": "poll loop stalls", "rejected": "is rejected"}[e.Type]
	if what == "" {
		what = e.Type
	}
	if e.Member != "" {
		return e.Member + " " + what
	}
	return what
}
