package rebalance

import "slices"

// pausedAndStopped reads the recorded timeline for two metrics a learner asks first: how many
// items paused at all after they had started, and how long the whole group did no work while it had work to do (every
// existing item paused at once: a stop of the world).
func pausedAndStopped(tl []ItemTimeline) (paused int, stopped int64) {
	type edge struct {
		at       int64
		exist, w int8
	}
	var es []edge
	for _, t := range tl {
		p, seen := false, false // a pause counts once the item has processed
		for _, sg := range t.Segments {
			es = append(es, edge{sg.FromMS, 1, 0}, edge{sg.ToMS, -1, 0})
			if sg.State == StateProcessing {
				es = append(es, edge{sg.FromMS, 0, 1}, edge{sg.ToMS, 0, -1})
				seen = true
			} else if seen && sg.ToMS > sg.FromMS {
				p = true
			}
		}
		if p {
			paused++
		}
	}
	slices.SortFunc(es, func(a, b edge) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	exist, work := 0, 0
	for i := 0; i < len(es); {
		at := es[i].at
		for ; i < len(es) && es[i].at == at; i++ {
			exist += int(es[i].exist)
			work += int(es[i].w)
		}
		if exist > 0 && work == 0 && i < len(es) {
			stopped += es[i].at - at
		}
	}
	return paused, stopped
}
