package studyview

import (
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

// HomeNow sums up the queue q over cards for the home page's first lines, with newLimit new
// cards a day, and when the next card comes due when none is now.
func HomeNow(q study.Queue, cards []*deck.Card, states srs.States, newLimit int, now time.Time, loc *time.Location) views.HomeNow {
	n := views.HomeNow{Due: len(q.Learning) + len(q.Review), New: len(q.New), NewLimit: newLimit,
		Unseen: Unseen(cards, states, nil)}
	next := q.NextAt
	if next.IsZero() && n.Due == 0 { // only new cards now: say when reviews resume
		next = nextReview(cards, states, now, loc)
	}
	if !next.IsZero() {
		n.NextDue = NextDue(next, now, loc)
	}
	return n
}

// nextReview is when the first studied card not due yet becomes due: a review card at the
// start of its due day, as the study queue counts it; zero when there is none.
func nextReview(cards []*deck.Card, states srs.States, now time.Time, loc *time.Location) time.Time {
	var next time.Time
	for _, c := range cards {
		st, ok := states.Get(c.ID)
		if !ok || st.State == srs.New || !st.Due.After(now) {
			continue
		}
		at := st.Due
		if st.State == srs.Review {
			at = study.DayStart(study.Day(st.Due, loc), loc)
		}
		if at.After(now) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	return next
}

// Topics counts each topic's cards and, from states (empty when signed out), how many of
// them the user studied and how many are due now.
func Topics(topics []deck.Topic, states srs.States, now time.Time, loc *time.Location) []views.TopicSummary {
	end := study.DayEnd(now, loc)
	out := make([]views.TopicSummary, 0, len(topics))
	for _, t := range topics {
		ts := views.TopicSummary{Name: t.Name, Slug: t.Slug, Count: len(t.Cards)}
		for _, c := range t.Cards {
			if st, ok := states.Get(c.ID); ok && st.State != srs.New {
				ts.Studied++
				if study.IsDue(st, now, end) {
					ts.Due++
				}
			}
		}
		out = append(out, ts)
	}
	return out
}

// CardStatus words a stored state for the topic page's list.
func CardStatus(st srs.Card, now, end time.Time) views.CardStatus {
	switch {
	case st.State == srs.New:
		return views.CardStatus{Text: "new"}
	case study.IsDue(st, now, end):
		return views.CardStatus{Text: "due today", Due: true}
	case st.State == srs.Learning || st.State == srs.Relearning:
		return views.CardStatus{Text: "learning"}
	}
	return views.CardStatus{Text: "next in " + srs.FormatInterval(st.Due.Sub(now))}
}
