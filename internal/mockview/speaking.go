package mockview

import (
	"fmt"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Speech is what the progress page's speaking section is measured from.
type Speech struct {
	Deck       *deck.Deck
	Recordings []store.Recording
	States     srs.States // the user's card states, for recall
	Scheduler  srs.Scheduler
	Sessions   []*store.MockSession     // recent mock interviews, newest first
	Rows       [][]views.MockSummaryRow // each session's scored rows (Rows)
}

// Speaking measures the user's recordings and mock interviews for the progress page.
func Speaking(in Speech, now time.Time, loc *time.Location) views.SpeakingView {
	d := in.Deck
	var takes []interview.Take
	for _, rec := range in.Recordings {
		c, ok := d.Card(rec.CardID)
		if !ok || rec.FollowUp {
			continue
		}
		takes = append(takes, interview.Take{Topic: c.Topic, At: rec.CreatedAt, Spoken: rec.Spoken, Target: rec.Target,
			Points: len(rec.Points), Heard: len(rec.Heard)})
	}
	sum, n := map[string]float64{}, map[string]int{}
	for _, c := range d.Cards {
		n[c.Topic]++
		if st, ok := in.States.Get(c.ID); ok && st.State != srs.New {
			sum[c.Topic] += in.Scheduler.Retrievability(st, now)
		}
	}
	recall := map[string]float64{}
	for t, k := range n {
		recall[t] = sum[t] / float64(k)
	}
	sp := interview.SpeakingStats(takes, recall, loc)
	v := views.SpeakingView{Takes: sp.Takes, Rule: interview.ReadinessRule}
	if sp.Takes > 0 {
		v.OnTime = fmt.Sprintf("%.0f %% (%d of %d)", 100*float64(sp.OnTime)/float64(sp.Takes), sp.OnTime, sp.Takes)
	}
	for _, t := range sp.Topics {
		row := views.SpeakingTopic{Topic: t.Topic, Takes: t.Takes, Recall: percent(t.Recall), Readiness: percent(t.Readiness), ReadinessPct: 100 * t.Readiness}
		if t.Takes > 0 {
			row.Spoken = fmt.Sprintf("%.0f s of %.0f s", t.Spoken.Seconds()/float64(t.Takes), t.Target.Seconds()/float64(t.Takes))
			row.OnTime = fmt.Sprintf("%d of %d", t.OnTime, t.Takes)
		}
		if t.Points > 0 {
			row.Heard = fmt.Sprintf("%d of %d", t.Heard, t.Points)
		}
		v.Topics = append(v.Topics, row)
	}
	for _, w := range sp.Weeks {
		v.Weeks = append(v.Weeks, views.SpeakingBar{Label: w.Start.Format("2 Jan"), Pct: 100 * float64(w.Heard) / float64(w.Points),
			Title: fmt.Sprintf("week of %s: %d of %d key points heard", w.Start.Format("2 Jan 2006"), w.Heard, w.Points)})
	}
	for i := len(in.Sessions) - 1; i >= 0; i-- { // oldest first
		if o, ok := Overall(in.Rows[i]); ok {
			at := in.Sessions[i].CreatedAt.In(loc)
			v.Mocks = append(v.Mocks, views.SpeakingBar{Label: at.Format("2 Jan"), Pct: o,
				Title: fmt.Sprintf("%s: score %.0f", at.Format("2 Jan 2006 15:04"), o)})
		}
	}
	return v
}

func percent(f float64) string { return fmt.Sprintf("%.0f %%", 100*f) }
