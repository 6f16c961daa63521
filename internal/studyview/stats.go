package studyview

import (
	"fmt"
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
	barTop     = 14 // room for the count above the tallest bar
	barBottom  = 20 // room for day labels
	forecastX0 = 34 // room for the count axis
)

// Retention words true retention over one window: passed of total answers given to cards in
// review, and how many answers (to new and learning cards) did not count.
func Retention(passed, total, answers int) views.Retention {
	r := views.Retention{Value: "no reviews yet", Counted: total, Other: max(answers-total, 0)}
	if total > 0 {
		r.Value = fmt.Sprintf("%.0f %% (%d of %d)", 100*float64(passed)/float64(total), passed, total)
	}
	return r
}

// CountByState counts the deck's cards per state; cards never answered are New. States of
// cards no longer in the deck are left out.
func CountByState(cards []*deck.Card, states srs.States) []views.StateCount {
	var n [4]int
	for _, c := range cards {
		cs, _ := states.Get(c.ID)
		st := cs.State
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

// Heatmap lays out the 365 study days ending today as weeks (columns, Monday first) of
// days (rows), with each square's level scaled to the busiest day.
func Heatmap(days []store.DayActivity, today time.Time) (h views.Heatmap, answers, studied int) {
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
	lastCol := -1
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
		// Each month is named over the column holding its first day (the current one too, however
		// few of its days have passed), unless that would crowd the previous name.
		if (day.Day() == 1 || day.Equal(first)) && (lastCol < 0 || col-lastCol >= 3) {
			lastCol = col
			h.Labels = append(h.Labels, views.SVGLabel{X: x, Y: heatTop - 5, Text: day.Format("Jan")})
		}
		h.Width = max(h.Width, x+heatCell+12) // a month name may start in the last column
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

// Forecast counts, for each of the next 30 study days, the deck cards that come due that
// day; anything already due counts today.
func Forecast(cards []*deck.Card, states srs.States, now time.Time, loc *time.Location) views.Forecast {
	today := study.Day(now, loc)
	var counts [forecastN]int
	for _, c := range cards {
		st, ok := states.Get(c.ID)
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
	f := views.Forecast{Width: forecastX0 + forecastN*barStep + 8, Height: barTop + barHeight + barBottom,
		X0: forecastX0 - 4, BaseY: barTop + barHeight}
	busiest := 0
	for i, n := range counts {
		busiest = max(busiest, n)
		switch {
		case i == 0:
			f.Today = n
		case i == 1:
			f.Tomorrow = n
		}
		if i < 7 {
			f.Week += n
		}
		f.Month += n
	}
	top := niceCeil(busiest)
	for _, v := range []int{0, top / 2, top} {
		if v == top/2 && top%2 != 0 {
			continue // a half-way tick would not be a whole number of cards
		}
		f.Ticks = append(f.Ticks, views.SVGLabel{X: forecastX0 - 8, Y: barTop + barHeight - v*barHeight/top, Text: fmt.Sprint(v)})
	}
	f.X1 = forecastX0 + forecastN*barStep
	for i, n := range counts {
		h := n * barHeight / top
		if n > 0 {
			h = max(h, 2)
		}
		day := today.AddDate(0, 0, i)
		label := day.Format("Mon 2 Jan")
		if i == 0 {
			label = "Today (with anything overdue)"
		}
		x := forecastX0 + i*barStep
		f.Bars = append(f.Bars, views.ForecastBar{X: x, Y: barTop + barHeight - h, W: barStep - 3, H: h,
			Count: n, Title: fmt.Sprintf("%s: %s due", label, countText(n, "card"))})
		if n > 0 {
			f.Counts = append(f.Counts, views.SVGLabel{X: x + (barStep-3)/2, Y: barTop + barHeight - h - 3, Text: fmt.Sprint(n)})
		}
		switch {
		case i == 0:
			f.Labels = append(f.Labels, views.SVGLabel{X: x, Y: barTop + barHeight + 15, Text: "Today"})
		case i%7 == 0:
			f.Labels = append(f.Labels, views.SVGLabel{X: x, Y: barTop + barHeight + 15, Text: day.Format("2 Jan")})
		}
	}
	return f
}

// niceCeil rounds n up to 1, 2 or 5 times a power of ten (at least 2), so the axis reads well.
func niceCeil(n int) int {
	for p := 1; ; p *= 10 {
		for _, m := range []int{1, 2, 5} {
			if v := m * p; v >= n && v >= 2 {
				return v
			}
		}
	}
}
