package server

import (
	"bytes"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/anki"
	"github.com/rehearse/rehearse/internal/srs"
)

// accountExport is GET /account/export.apkg: every card of the deck as an Anki package with
// the user's schedule on each, and with ?history=1 their review log.
func (s *Server) accountExport(w http.ResponseWriter, r *http.Request) {
	ctx, u, now := readCtx(r), userFrom(r.Context()), s.now()
	states, err := s.db.CardStates(ctx, u.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	answers := map[string][]anki.Answered{}
	if queryValues(r).Get("history") == "1" {
		log, err := s.db.ReviewsSince(ctx, u.ID, time.Unix(0, 0))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, rv := range log {
			after := srs.Card{State: rv.StateAfter, Stability: rv.StabilityAfter, Difficulty: rv.DifficultyAfter,
				LastReview: rv.ReviewedAt, Due: rv.ReviewedAt.Add(time.Duration(rv.ScheduledDays * float64(24*time.Hour)))}
			answers[rv.CardID] = append(answers[rv.CardID], anki.Answered{At: rv.ReviewedAt, Rating: rv.Rating,
				TookMS: rv.DurationMS, Before: rv.Before, After: after})
		}
	}
	d := s.deck()
	cards := make([]anki.ExportCard, 0, d.Len())
	for _, c := range d.Cards {
		front, back := anki.CardSides(c)
		ec := anki.ExportCard{ID: c.ID, Topic: c.Topic, Tags: c.Tags, Front: front, Back: back, Answers: answers[c.ID]}
		if st, ok := states.Get(c.ID); ok && st.State != srs.New {
			ec.State = &st
		}
		cards = append(cards, ec)
	}
	var buf bytes.Buffer // whole, so a failure is an error page rather than a cut-off download
	if err := anki.Write(ctx, &buf, cards, now, ""); err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Content-Disposition", `attachment; filename="rehearse-`+now.Format("2006-01-02")+`.apkg"`)
	h.Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}
