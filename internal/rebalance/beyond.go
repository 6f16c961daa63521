package rebalance

import (
	"fmt"
	"slices"
)

// Beyond says which of the scenario's events would act after duration_ms, where the run never
// shows them: a rolling restart's later restarts, a flap's later crashes, a restarted member's
// return. A learner who asked for a restart of six members should not silently see three.
func (s Scenario) Beyond() []string {
	evs := slices.Clone(s.Events)
	slices.SortStableFunc(evs, func(a, b Event) int { return int(a.AtMS - b.AtMS) })
	present := len(s.Members)
	end := s.DurationMS
	secs := func(ms int64) string { return fmt.Sprintf("%g s", float64(ms)/1000) }
	var out []string
	for _, e := range evs {
		switch e.Type {
		case "join":
			present++
		case "leave", "crash":
			present--
		case "rolling_restart":
			last := e.AtMS + int64(max(present-1, 0))*e.IntervalMS
			if late := int64(0); last+e.DownMS > end {
				for k := 0; k < present; k++ {
					if e.AtMS+int64(k)*e.IntervalMS > end {
						late++
					}
				}
				msg := fmt.Sprintf("The rolling restart at %s restarts %d members %s apart: ", secs(e.AtMS), present, secs(e.IntervalMS))
				if late > 0 {
					msg += fmt.Sprintf("%d of them would restart after the run ends at %s", late, secs(end))
				} else {
					msg += fmt.Sprintf("the last one is back only after the run ends at %s", secs(end))
				}
				out = append(out, msg+fmt.Sprintf("; run at least %s to see it all.", secs(last+e.DownMS+30_000)))
			}
		case "flap":
			if last := e.AtMS + int64(e.Count-1)*e.IntervalMS + e.DownMS; last > end {
				out = append(out, fmt.Sprintf("%s's flapping at %s goes on after the run ends at %s; run at least %s to see it all.", e.Member, secs(e.AtMS), secs(end), secs(last+30_000)))
			}
		case "restart":
			if e.AtMS+e.DownMS > end {
				out = append(out, fmt.Sprintf("%s, restarted at %s, would come back after the run ends at %s.", e.Member, secs(e.AtMS), secs(end)))
			}
		}
	}
	return out
}
