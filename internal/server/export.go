package server

import (
	"bytes"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/anki"
	"github.com/rehearse/rehearse/internal/store"
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
	var log []store.Review
	if queryValues(r).Get("history") == "1" {
		if log, err = s.db.ReviewsSince(ctx, u.ID, time.Unix(0, 0)); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	cards := anki.ExportCards(s.deck(), states, log)
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
