package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/mockrun"
	"github.com/rehearse/rehearse/internal/mockview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// mockID is the session id in the URL; any other text names no session.
func mockID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		return 0, store.ErrNotFound
	}
	return id, nil
}

// loadMockSession loads the signed-in user's session named in the URL.
func (s *Server) loadMockSession(r *http.Request) (*store.MockSession, error) {
	id, err := mockID(r)
	if err != nil {
		return nil, err
	}
	return s.db.MockSession(r.Context(), userFrom(r.Context()).ID, id, s.now())
}

// loadTurn loads the current question. It answers the request itself (and returns nil) when
// there is no current question, or when a posted "pos" is not the current one (a stale tab or a
// double submit): then the user is sent to wherever the session really is.
func (s *Server) loadTurn(w http.ResponseWriter, r *http.Request) *mockrun.Turn {
	id, err := mockID(r)
	var t *mockrun.Turn
	if err == nil {
		t, err = mockrun.Load(r.Context(), s.db, s.deck(), userFrom(r.Context()).ID, id, s.now())
	}
	switch {
	case errors.Is(err, mockrun.ErrOver):
		http.Redirect(w, r, mockURL(id, "/summary"), http.StatusSeeOther)
	case err != nil:
		s.mockFail(w, r, err)
	case r.Method == http.MethodPost && r.PostFormValue("pos") != strconv.Itoa(t.Pos):
		http.Redirect(w, r, mockURL(id, ""), http.StatusSeeOther)
	default:
		return t
	}
	return nil
}

// mockFail words the mock's own errors; others go to fail.
func (s *Server) mockFail(w http.ResponseWriter, r *http.Request, err error) {
	var ce *mockrun.ChecklistError
	switch {
	case errors.As(err, &ce):
		err = errStatus(http.StatusBadRequest, ce.Error())
	case errors.Is(err, mockrun.ErrCardGone):
		err = errStatus(http.StatusGone, "This question's card is no longer in the deck. End the session and start another.")
	}
	s.fail(w, r, err)
}

// mockStep shows whatever the current question needs next.
func (s *Server) mockStep(w http.ResponseWriter, r *http.Request) {
	t := s.loadTurn(w, r)
	if t == nil {
		return
	}
	now := s.now()
	shown, err := mockrun.Show(r.Context(), s.db, t, now)
	if errors.Is(err, mockrun.ErrRanOut) {
		http.Redirect(w, r, mockURL(t.Session.ID, ""), http.StatusSeeOther)
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	switch t.Step() {
	case mockrun.Asking:
		s.render(w, r, http.StatusOK, views.MockQuestionPage(s.mockPage(r, "Mock interview"), mockview.Question(t, shown, now)))
	case mockrun.FollowingUp:
		s.render(w, r, http.StatusOK, views.MockQuestionPage(s.mockPage(r, "Mock interview: follow-up"), mockview.Question(t, shown, now)))
	case mockrun.Reviewing:
		recs, _ := s.db.MockRecordings(r.Context(), t.Session.UserID, t.Session.ID) // the review stands without them
		s.render(w, r, http.StatusOK, views.MockReviewPage(s.mockPage(r, "Mock interview"), mockview.Review(t, recs)))
	default:
		s.render(w, r, http.StatusOK, views.MockFollowUpReviewPage(s.mockPage(r, "Mock interview"), mockview.FollowUpReview(t)))
	}
}

// mockDone answers a posted step: back to the session, which shows what comes next.
func (s *Server) mockDone(w http.ResponseWriter, r *http.Request, t *mockrun.Turn, err error) {
	if err != nil {
		s.mockFail(w, r, err)
		return
	}
	http.Redirect(w, r, mockURL(t.Session.ID, ""), http.StatusSeeOther)
}

func (s *Server) mockAnswer(w http.ResponseWriter, r *http.Request) {
	if t := s.loadTurn(w, r); t != nil {
		s.mockDone(w, r, t, mockrun.Answer(r.Context(), s.db, t, r.PostFormValue("typed"), s.now()))
	}
}

func (s *Server) mockCheck(w http.ResponseWriter, r *http.Request) {
	if t := s.loadTurn(w, r); t != nil {
		s.mockDone(w, r, t, mockrun.Check(r.Context(), s.db, t, postedChecklist(r)))
	}
}

func (s *Server) mockFollowUp(w http.ResponseWriter, r *http.Request) {
	if t := s.loadTurn(w, r); t != nil {
		s.mockDone(w, r, t, mockrun.FollowUp(r.Context(), s.db, t, r.PostFormValue("typed"), s.now()))
	}
}

// postedChecklist is the review form's ticked boxes.
func postedChecklist(r *http.Request) mockrun.Checklist {
	return mockrun.Checklist{Covered: r.PostForm["covered"], Pitfalls: r.PostForm["pitfall"]}
}

func (s *Server) mockRate(w http.ResponseWriter, r *http.Request) {
	t := s.loadTurn(w, r)
	if t == nil {
		return
	}
	rating, err := strconv.Atoi(r.PostFormValue("rating"))
	if err != nil || !srs.Rating(rating).Valid() {
		s.fail(w, r, errStatus(http.StatusBadRequest, "The rating must be 1 (again), 2 (hard), 3 (good) or 4 (easy)."))
		return
	}
	var fix *mockrun.Checklist
	if r.PostFormValue("checklist") != "" {
		cl := postedChecklist(r)
		fix = &cl
	}
	res, err := mockrun.Rate(r.Context(), s.db, t, scheduler(userFrom(r.Context())), srs.Rating(rating), fix, s.now())
	if res.Reviewed {
		s.metrics.AnswerRecorded()
	}
	if res.Unlogged != nil {
		s.log.WarnContext(r.Context(), "mock review not recorded", "session", t.Session.ID, "card", t.Card.ID, "err", res.Unlogged)
	}
	if err == nil && res.Finished {
		s.metrics.MockFinished()
		http.Redirect(w, r, mockURL(t.Session.ID, "/summary"), http.StatusSeeOther)
		return
	}
	s.mockDone(w, r, t, err)
}

// mockEnd asks before ending a session (a plain page, so it works without JavaScript).
func (s *Server) mockEnd(w http.ResponseWriter, r *http.Request) {
	sess, err := s.loadMockSession(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if sess.Status != store.MockActive {
		http.Redirect(w, r, mockURL(sess.ID, "/summary"), http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusOK, views.MockEndPage(s.mockPage(r, "End the mock interview?"), mockview.End(sess)))
}

func (s *Server) mockAbandon(w http.ResponseWriter, r *http.Request) {
	sess, err := s.loadMockSession(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if sess.Status == store.MockActive {
		if err := s.db.FinishMockSession(r.Context(), sess.ID, store.MockAbandoned, s.now()); err != nil && !errors.Is(err, store.ErrNotFound) {
			s.fail(w, r, err)
			return
		}
	}
	http.Redirect(w, r, mockURL(sess.ID, "/summary"), http.StatusSeeOther)
}
