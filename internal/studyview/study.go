package studyview

import (
	"strconv"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

// Progress words a user's stored progress on card c for its page, in the user's zone at now:
// its state, when it is due, how likely it is recalled now (by sched) and its answers, newest
// first. Recordings and whether the card is suspended are the caller's.
func Progress(prog store.CardProgress, sched srs.Scheduler, now time.Time, loc *time.Location, c *deck.Card) views.ProgressView {
	st, hist := prog.State, prog.History
	v := views.ProgressView{Studied: prog.Studied && st.State != srs.New, Next: "/cards/" + c.ID}
	if v.Studied {
		v.State = st.State.String()
		v.Stability = strconv.FormatFloat(st.Stability, 'f', 2, 64) + " days"
		v.Difficulty = strconv.FormatFloat(st.Difficulty, 'f', 2, 64) + " of 10"
		v.Reps, v.Lapses = st.Reps, st.Lapses
		v.Due = When(st.Due, now, loc)
		if st.Due.After(now) {
			v.Due += " (in " + srs.FormatInterval(st.Due.Sub(now)) + ")"
		} else {
			v.Due += " (due now)"
		}
		v.Retrievability = strconv.FormatFloat(100*sched.Retrievability(st, now), 'f', 1, 64) + " %"
	}
	v.History = make([]views.HistoryRow, 0, len(hist))
	for i := len(hist) - 1; i >= 0; i-- {
		h := hist[i]
		v.History = append(v.History, views.HistoryRow{
			When:        h.ReviewedAt.In(loc).Format("2 Jan 2006 15:04"),
			Rating:      RatingLabel(h.Rating),
			StateBefore: h.Before.State.String(),
			Interval:    srs.FormatInterval(time.Duration(h.ScheduledDays * float64(24*time.Hour))),
			Took:        srs.FormatInterval(time.Duration(h.DurationMS) * time.Millisecond),
			Mode:        h.Mode,
		})
	}
	return v
}

// RatingLabel names an answer's rating as its button does.
func RatingLabel(r srs.Rating) string {
	return [...]string{"Again", "Hard", "Good", "Easy"}[r-1]
}

// Buttons are the study page's four answers for the card id in state st, each with the
// interval sched would give it at now.
func Buttons(sched srs.Scheduler, id string, st srs.Card, now time.Time) []views.StudyButton {
	var out []views.StudyButton
	for i, c := range study.Preview(sched, id, st, now) {
		rating := srs.Rating(i + 1)
		out = append(out, views.StudyButton{Rating: int(rating), Label: RatingLabel(rating),
			Interval: srs.FormatInterval(c.Due.Sub(now))})
	}
	return out
}

// QueueKind is the queue a card in state c is shown from: learning, review or new.
func QueueKind(c srs.Card) string {
	switch c.State {
	case srs.Learning, srs.Relearning:
		return "learning"
	case srs.Review:
		return "review"
	}
	return "new"
}

// NextDue says when the next card comes due, relative and in the user's clock.
func NextDue(at, now time.Time, loc *time.Location) string {
	if at.IsZero() {
		return "Nothing else is scheduled. Add new cards per day in settings, or study another topic."
	}
	return "The next card is due in " + srs.FormatInterval(at.Sub(now)) + " (" + When(at, now, loc) + ")."
}

// When names a moment in the user's zone: "today 10:18", "tomorrow 04:00", "Tue 3 Nov 2026".
func When(t, now time.Time, loc *time.Location) string {
	lt, ln := t.In(loc), now.In(loc)
	y, m, d := lt.Date()
	switch ny, nm, nd := ln.Date(); {
	case y == ny && m == nm && d == nd:
		return "today " + lt.Format("15:04")
	case ln.AddDate(0, 0, 1).Format(time.DateOnly) == lt.Format(time.DateOnly):
		return "tomorrow " + lt.Format("15:04")
	}
	return lt.Format("Mon 2 Jan 2006, 15:04")
}

// Unseen counts the cards never answered (or New again), leaving out suspended ones.
func Unseen(cards []*deck.Card, states srs.States, suspended map[string]bool) int {
	n := 0
	for _, c := range cards {
		if st, ok := states.Get(c.ID); (!ok || st.State == srs.New) && !suspended[c.ID] {
			n++
		}
	}
	return n
}

// Study ahead (Anki's custom study: "increase today's new card limit") raises the new-card
// limit for one session by AheadStep cards at a time, up to MaxAhead in a day.
const (
	AheadStep = 10
	MaxAhead  = 1000
)

// Ahead is how many more new cards, at most AheadStep, the plan's cards hold beyond today's
// limit: 0 when every one was seen or suspended, or when they would pass MaxAhead today.
func Ahead(cards []*deck.Card, p study.Plan) int {
	n := min(Unseen(cards, p.States, p.Suspended), AheadStep)
	if p.NewToday+n > MaxAhead {
		return 0
	}
	return n
}
