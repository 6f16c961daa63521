package server

import (
	"fmt"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/views"
)

// mockTrendN is how many recent mock interviews the progress page shows.
const mockTrendN = 12

// speaking measures the user's recordings and mock interviews for the progress page.
func (s *Server) speaking(r *http.Request, states srs.States, now time.Time, loc *time.Location) (views.SpeakingView, error) {
	ctx, u, d := r.Context(), userFrom(r.Context()), s.deck()
	recs, err := s.db.UserRecordings(ctx, u.ID)
	if err != nil {
		return views.SpeakingView{}, err
	}
	var takes []interview.Take
	for _, rec := range recs {
		c, ok := d.Card(rec.CardID)
		if !ok || rec.FollowUp {
			continue
		}
		takes = append(takes, interview.Take{Topic: c.Topic, At: rec.CreatedAt, Spoken: rec.Spoken, Target: rec.Target,
			Points: len(rec.Points), Heard: len(rec.Heard)})
	}
	sched := scheduler(u)
	sum, n := map[string]float64{}, map[string]int{}
	for _, c := range d.Cards {
		n[c.Topic]++
		if st, ok := states.Get(c.ID); ok && st.State != srs.New {
			sum[c.Topic] += sched.Retrievability(st, now)
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
	sessions, err := s.db.MockHistory(ctx, u.ID, mockTrendN, now)
	if err != nil {
		return v, err
	}
	for i := len(sessions) - 1; i >= 0; i-- { // oldest first
		rows, err := s.mockRows(ctx, sessions[i])
		if err != nil {
			return v, err
		}
		var scores []float64
		for _, q := range rows {
			if q.Answered {
				scores = append(scores, q.Score)
			}
		}
		if len(scores) > 0 {
			o := interview.Overall(scores)
			v.Mocks = append(v.Mocks, views.SpeakingBar{Label: sessions[i].CreatedAt.In(loc).Format("2 Jan"), Pct: o,
				Title: fmt.Sprintf("%s: score %.0f", sessions[i].CreatedAt.In(loc).Format("2 Jan 2006 15:04"), o)})
		}
	}
	return v, nil
}

func percent(f float64) string { return fmt.Sprintf("%.0f %%", 100*f) }
