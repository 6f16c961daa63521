package anki

import (
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
)

// ExportCards is every card of d for Write, with a learner's schedule on each (states) and
// their review log (oldest first; nil for none).
func ExportCards(d *deck.Deck, states srs.States, log []store.Review) []ExportCard {
	answers := map[string][]Answered{}
	for _, rv := range log {
		after := srs.Card{State: rv.StateAfter, Stability: rv.StabilityAfter, Difficulty: rv.DifficultyAfter,
			LastReview: rv.ReviewedAt, Due: rv.ReviewedAt.Add(time.Duration(rv.ScheduledDays * float64(24*time.Hour)))}
		answers[rv.CardID] = append(answers[rv.CardID], Answered{At: rv.ReviewedAt, Rating: rv.Rating,
			TookMS: rv.DurationMS, Before: rv.Before, After: after})
	}
	cards := make([]ExportCard, 0, d.Len())
	for _, c := range d.Cards {
		front, back := CardSides(c)
		ec := ExportCard{ID: c.ID, Topic: c.Topic, Tags: c.Tags, Front: front, Back: back, Answers: answers[c.ID]}
		if st, ok := states.Get(c.ID); ok && st.State != srs.New {
			ec.State = &st
		}
		cards = append(cards, ec)
	}
	return cards
}
