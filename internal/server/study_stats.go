package server

import (
	"fmt"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

// Heatmap geometry, in SVG user units.
const (
	heatCell   = 13 // 11 px square plus a 2 px gap
	heatLeft   = 30 // room for weekday labels
	heatTop    = 16 // room for month labels
	heatDays   = 365
	forecastN  = 30
	barStep    = 16
	barHeight  = 100
	barTop     = 4
	barBottom  = 18 // room for day labels
	forecastX0 = 4
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
	v.Heatmap, v.TotalAnswers, v.DaysStudied = buildHeatmap(days, today)
	for _, win := range []struct {
		days int
		out  *string
	}{{7, &v.Retention7}, {30, &v.Retention30}} {
		passed, total, err := s.db.Retention(ctx, u.ID, now.AddDate(0, 0, -win.days))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		*win.out = retentionText(passed, total)
	}
	states, err := s.db.CardStates(ctx, u.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.ByState = countByState(s.deck().Cards, states)
	v.Forecast = buildForecast(s.deck().Cards, states, now, loc)
	p := s.page(r, "Progress")
	p.CSS = append(p.CSS, s.assets.URL("study.css"))
	s.render(w, r, http.StatusOK, views.Stats(p, v))
}

func retentionText(passed, total int) string {
	if total == 0 {
		return "no reviews yet"
	}
	return fmt.Sprintf("%.0f %% (%d of %d)", 100*float64(passed)/float64(total), passed, total)
}

// countByState counts the deck's cards per state; cards never answered are New. States of
// cards no longer in the deck are left out.
func countByState(cards []*deck.Card, states map[string]srs.Card) []views.StateCount {
	var n [4]int
	for _, c := range cards {
		st := states[c.ID].State
		if st < srs.New || st > srs.Relearning {
			st = srs.New
		}
		n[st]++
	}
	out := make([]views.StateCount, 0, 4)
	for st := srs.New; st <= srs.Relearning; st++ {
		out = append(out, views.StateCount{State: st.String(), Count: n[st]})
	}
	return out
}

// buildHeatmap lays out the 365 study days ending today as weeks (columns, Monday first) of
// days (rows), with each square's level scaled to the busiest day.
func buildHeatmap(days []store.DayActivity, today time.Time) (h views.Heatmap, answers, studied int) {
	first := today.AddDate(0, 0, -(heatDays - 1))
	byDay := map[time.Time]store.DayActivity{}
	busiest := 0
	for _, d := range days {
		if d.Day.Before(first) || d.Day.After(today) {
			continue
		}
		byDay[d.Day] = d
		busiest = max(busiest, d.Reviews)
		answers += d.Reviews
		studied++
	}
	weekday := func(t time.Time) int { return (int(t.Weekday()) + 6) % 7 } // Monday = 0
	start := first.AddDate(0, 0, -weekday(first))                          // Monday of the first column
	lastMonth := time.Month(0)
	for day := first; !day.After(today); day = day.AddDate(0, 0, 1) {
		col := int(day.Sub(start).Hours()/24) / 7
		x, y := heatLeft+col*heatCell, heatTop+weekday(day)*heatCell
		d := byDay[day]
		level := 0
		if d.Reviews > 0 {
			level = min((4*d.Reviews+busiest-1)/busiest, 4) // ceil(4·n/busiest): any activity shows
		}
		title := day.Format("Mon 2 Jan 2006") + ": no answers"
		if d.Reviews > 0 {
			title = fmt.Sprintf("%s: %s, %s", day.Format("Mon 2 Jan 2006"), countText(d.Reviews, "answer"),
				minutesText(d.DurationMS))
		}
		h.Cells = append(h.Cells, views.HeatCell{X: x, Y: y, Level: level, Title: title, Date: day.Format(time.DateOnly)})
		if weekday(day) == 0 && day.Month() != lastMonth { // a month's first full column
			lastMonth = day.Month()
			h.Labels = append(h.Labels, views.SVGLabel{X: x, Y: heatTop - 5, Text: day.Format("Jan")})
		}
		h.Width = max(h.Width, x+heatCell)
	}
	for i, name := range []string{"Mon", "Wed", "Fri"} {
		h.Labels = append(h.Labels, views.SVGLabel{X: 0, Y: heatTop + (2*i)*heatCell + 10, Text: name})
	}
	h.Height = heatTop + 7*heatCell
	return h, answers, studied
}

func countText(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func minutesText(durMS int64) string {
	m := (durMS + 30_000) / 60_000
	if m < 1 && durMS > 0 {
		return "under a minute"
	}
	return countText(int(m), "minute")
}

// buildForecast counts, for each of the next 30 study days, the deck cards that come due that
// day; anything already due counts today.
func buildForecast(cards []*deck.Card, states map[string]srs.Card, now time.Time, loc *time.Location) views.Forecast {
	today := study.Day(now, loc)
	var counts [forecastN]int
	for _, c := range cards {
		st, ok := states[c.ID]
		if !ok || st.State == srs.New {
			continue
		}
		i := 0
		if st.Due.After(now) {
			i = int(study.Day(st.Due, loc).Sub(today).Hours()/24 + 0.5)
		}
		if i >= 0 && i < forecastN {
			counts[i]++
		}
	}
	f := views.Forecast{Width: forecastX0 + forecastN*barStep + 24, // room for the last date label
		Height: barTop + barHeight + barBottom}
	busiest := 1
	for i, n := range counts {
		busiest = max(busiest, n)
		if i == 1 {
			f.Tomorrow = n
		}
		if i < 7 {
			f.Week += n
		}
		f.Month += n
	}
	for i, n := range counts {
		h := n * barHeight / busiest
		if n > 0 {
			h = max(h, 2)
		}
		day := today.AddDate(0, 0, i)
		label := day.Format("Mon 2 Jan")
		if i == 0 {
			label = "Today"
		}
		f.Bars = append(f.Bars, views.ForecastBar{X: forecastX0 + i*barStep, Y: barTop + barHeight - h, W: barStep - 3, H: h,
			Count: n, Title: fmt.Sprintf("%s: %s due", label, countText(n, "card"))})
		if i%7 == 0 {
			f.Labels = append(f.Labels, views.SVGLabel{X: forecastX0 + i*barStep, Y: barTop + barHeight + 14, Text: day.Format("2 Jan")})
		}
	}
	return f
}
