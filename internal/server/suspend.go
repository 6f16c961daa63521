package server

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/studyview"
)

// aheadLimit reads ?new=: a session's new-card limit for today (study ahead), 0 when absent or
// not a number in 1..studyview.MaxAhead.
func aheadLimit(v string) int {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > studyview.MaxAhead {
		return 0
	}
	return n
}

// cardSuspend is POST /cards/{id}/suspend: suspend=1 takes the card out of the user's study,
// suspend=0 puts it back.
func (s *Server) cardSuspend(w http.ResponseWriter, r *http.Request) {
	c, ok := s.deck().Card(chi.URLParam(r, "id"))
	if !ok {
		s.notFound(w, r)
		return
	}
	on := r.PostFormValue("suspend")
	if on != "0" && on != "1" {
		s.fail(w, r, errStatus(http.StatusUnprocessableEntity, "suspend must be 1 (suspend) or 0 (unsuspend)."))
		return
	}
	u := userFrom(r.Context())
	if err := s.db.SetSuspended(r.Context(), u.ID, c.ID, on == "1", s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/cards/"+c.ID+"#progress", http.StatusSeeOther)
}

// studySuspend is POST /study/suspend: suspend the card shown and go on with the session.
func (s *Server) studySuspend(w http.ResponseWriter, r *http.Request) {
	_, filter, err := s.studyScope(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	c, ok := s.deck().Card(r.PostFormValue("card"))
	if !ok {
		s.fail(w, r, errStatus(http.StatusNotFound, "That card is not in the deck any more."))
		return
	}
	u := userFrom(r.Context())
	if err := s.db.SetSuspended(r.Context(), u.ID, c.ID, true, s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, studyURL(filter, url.Values{"suspended": {c.ID}}), http.StatusSeeOther)
}

type suspendedNoteKey struct{}

// withSuspendedNote carries the question of the card just suspended to the study page.
func withSuspendedNote(ctx context.Context, question string) context.Context {
	return context.WithValue(ctx, suspendedNoteKey{}, question)
}

func suspendedNote(ctx context.Context) string {
	s, _ := ctx.Value(suspendedNoteKey{}).(string)
	return s
}
