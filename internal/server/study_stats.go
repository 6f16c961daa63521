package server

import (
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/studyview"
	"github.com/rehearse/rehearse/internal/views"
)

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	ctx, u, now := r.Context(), userFrom(r.Context()), s.now()
	loc := userLocation(u)
	today := study.Day(now, loc)
	days, err := s.db.DailyActivity(ctx, u.ID, time.Time{}, loc) // all time: the longest streak needs it
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := views.StatsPage{TimeZone: loc.String()}
	v.Current, v.Longest = store.Streaks(days, today)
	v.Heatmap, v.TotalAnswers, v.DaysStudied = studyview.Heatmap(days, today)
	for _, win := range []struct {
		days int
		out  *views.Retention
	}{{7, &v.Retention7}, {30, &v.Retention30}} {
		since := now.AddDate(0, 0, -win.days)
		passed, total, answers, err := s.db.Retention(ctx, u.ID, since)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		*win.out = studyview.Retention(passed, total, answers)
	}
	states, err := s.db.CardStates(ctx, u.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.ByState = studyview.CountByState(s.deck().Cards, states)
	if v.Speaking, err = s.speaking(r, states, now, loc); err != nil {
		s.fail(w, r, err)
		return
	}
	v.Forecast = studyview.Forecast(s.deck().Cards, states, now, loc)
	p := s.page(r, "Progress")
	p.CSS = append(p.CSS, s.assets.URL("stats.css"))
	s.render(w, r, http.StatusOK, views.Stats(p, v))
}
