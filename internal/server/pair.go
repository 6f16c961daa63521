package server

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/pair"
	"github.com/rehearse/rehearse/internal/pairview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Pair interviews (/pair): the rules are in internal/pair and the pages are built by
// internal/pairview; these handlers decode, apply one rule, store, wake the other screen
// (pairevents.go) and redirect.

func (s *Server) pairRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Get("/pair", s.pairIndex)
		r.Post("/pair", s.pairOpen)
		r.Get("/pair/{code}", s.pairPage)
		r.Post("/pair/{code}/start", s.pairStart)
		r.Post("/pair/{code}/finish", s.pairFinish)
		r.Post("/pair/{code}/cancel", s.pairCancel)
		r.Get("/pair/{code}/events", s.pairEvents) // pairevents.go
	})
}

func (s *Server) pairIndex(w http.ResponseWriter, r *http.Request) {
	s.renderPairIndex(w, r, http.StatusOK, nil)
}

func (s *Server) renderPairIndex(w http.ResponseWriter, r *http.Request, status int, fe *views.FormError) {
	ctx, me := r.Context(), userFrom(r.Context())
	team, err := s.db.TeamUsers(ctx)
	var list []*pair.Session
	if err == nil {
		list, err = s.db.PairsOf(ctx, me.ID, 20)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	p := s.page(r, "Interview a colleague")
	p.CSS = append(p.CSS, s.assets.URL("pair.css"))
	s.render(w, r, status, views.PairIndexPage(p, pairview.Index(me.ID, team, s.deck(), list, fe)))
}

func (s *Server) pairOpen(w http.ResponseWriter, r *http.Request) {
	me := userFrom(r.Context())
	cand, err := strconv.ParseInt(r.PostFormValue("candidate"), 10, 64)
	var other *store.User
	if err == nil {
		other, err = s.db.UserByID(r.Context(), cand)
	}
	if err != nil || other.Disabled {
		s.renderPairIndex(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: "Choose a colleague from the list."})
		return
	}
	card, ok := pair.Card(s.deck(), r.PostFormValue("card"))
	if !ok {
		s.renderPairIndex(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: "That card is not in the deck (or has no rubric); choose another."})
		return
	}
	sess, err := pair.Open(pair.NewCode(), me.ID, other.ID, card.ID, pair.Target(card), s.now())
	if errors.Is(err, pair.ErrSelf) {
		s.renderPairIndex(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: "Choose a colleague to interview, not yourself."})
		return
	}
	saved, err := s.db.CreatePair(r.Context(), sess)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/pair/"+saved.Code, http.StatusSeeOther)
}

// pairFor loads the session in the URL for one of its two people; anyone else gets a 404, as
// for a session that does not exist.
func (s *Server) pairFor(w http.ResponseWriter, r *http.Request) (*pair.Session, pair.Role, bool) {
	code := chi.URLParam(r, "code")
	if len(code) > 40 {
		s.fail(w, r, store.ErrNotFound)
		return nil, 0, false
	}
	sess, err := s.db.PairByCode(r.Context(), code)
	if err != nil {
		s.fail(w, r, err)
		return nil, 0, false
	}
	role := sess.RoleOf(userFrom(r.Context()).ID)
	if role == pair.Outsider {
		s.fail(w, r, store.ErrNotFound)
		return nil, 0, false
	}
	return sess, role, true
}

func (s *Server) pairPage(w http.ResponseWriter, r *http.Request) {
	if sess, role, ok := s.pairFor(w, r); ok {
		s.renderPair(w, r, http.StatusOK, sess, role, nil)
	}
}

func (s *Server) renderPair(w http.ResponseWriter, r *http.Request, status int, sess *pair.Session, role pair.Role, fe *views.FormError) {
	card, ok := s.deck().Card(sess.CardID)
	if !ok {
		s.fail(w, r, errStatus(http.StatusGone, "This session's card is no longer in the deck."))
		return
	}
	with := ""
	if u, err := s.db.UserByID(r.Context(), sess.UserOf(role.Other())); err == nil {
		with = u.Username
	}
	live := pairview.Live(sess, with, s.now())
	p := s.page(r, "Pair interview", "voice.js", "pair.js")
	p.CSS = append(p.CSS, s.assets.URL("pair.css"), s.assets.URL("voice.css"))
	w.Header().Set("Cache-Control", "no-store")
	if role == pair.Candidate {
		s.render(w, r, status, views.PairCandidatePage(p, pairview.Candidate(sess, live, card)))
		return
	}
	here := s.pairs.Present(sess.Code, pair.Candidate)
	s.render(w, r, status, views.PairInterviewerPage(p, pairview.Interviewer(sess, live, card, here, fe)))
}

func (s *Server) pairStart(w http.ResponseWriter, r *http.Request) {
	sess, role, ok := s.pairFor(w, r)
	if !ok {
		return
	}
	if err := sess.Start(userFrom(r.Context()).ID, s.now()); err != nil {
		s.pairRefused(w, r, sess, role, err)
		return
	}
	s.pairSaved(w, r, sess, s.db.SavePair(r.Context(), *sess, pair.Waiting))
}

func (s *Server) pairFinish(w http.ResponseWriter, r *http.Request) {
	sess, role, ok := s.pairFor(w, r)
	if !ok {
		return
	}
	r.ParseForm()
	level, hit, notes := pair.ReadResult(r.PostFormValue("level"), r.PostForm["pitfall"], r.PostFormValue("notes"))
	nPitfalls := 0
	if card, ok := s.deck().Card(sess.CardID); ok {
		nPitfalls = len(card.Pitfalls)
	}
	if err := sess.Finish(userFrom(r.Context()).ID, level, hit, nPitfalls, notes, s.now()); err != nil {
		s.pairRefused(w, r, sess, role, err)
		return
	}
	s.pairSaved(w, r, sess, s.db.FinishPair(r.Context(), *sess, rand.Int64N(1<<31)))
}

func (s *Server) pairCancel(w http.ResponseWriter, r *http.Request) {
	sess, role, ok := s.pairFor(w, r)
	if !ok {
		return
	}
	from := sess.State
	if err := sess.Cancel(userFrom(r.Context()).ID, s.now()); err != nil {
		s.pairRefused(w, r, sess, role, err)
		return
	}
	s.pairSaved(w, r, sess, s.db.SavePair(r.Context(), *sess, from))
}

// pairSaved wakes both screens once a change is stored, and shows the session. A conflict
// means the other side changed it first: the page shows where it is now.
func (s *Server) pairSaved(w http.ResponseWriter, r *http.Request, sess *pair.Session, err error) {
	if err != nil && !errors.Is(err, store.ErrConflict) {
		s.fail(w, r, err)
		return
	}
	s.pairs.Changed(sess.Code)
	http.Redirect(w, r, "/pair/"+sess.Code, http.StatusSeeOther)
}

// pairRefused words a broken rule: a form error on the page, or a 403 for the candidate.
func (s *Server) pairRefused(w http.ResponseWriter, r *http.Request, sess *pair.Session, role pair.Role, err error) {
	switch {
	case errors.Is(err, pair.ErrNotAllowed):
		s.fail(w, r, errStatus(http.StatusForbidden, "Only the interviewer can do that."))
	case errors.Is(err, pair.ErrResult):
		s.renderPair(w, r, http.StatusUnprocessableEntity, sess, role, &views.FormError{Form: "Mark a level from none to 4, and only the card's pitfalls."})
	default:
		s.renderPair(w, r, http.StatusConflict, sess, role, &views.FormError{Form: "The session has moved on; this is where it is now."})
	}
}
