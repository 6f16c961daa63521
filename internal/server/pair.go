package server

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"math/big"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/pair"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Pair interviews (/pair): the rules are in internal/pair; these handlers decode, apply one
// rule, store, wake the other screen (pairevents.go) and redirect.

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

// defaultPairTarget is the clock when a card has no go-deeper timing.
const defaultPairTarget = 2 * time.Minute

func (s *Server) pairIndex(w http.ResponseWriter, r *http.Request) {
	s.renderPairIndex(w, r, http.StatusOK, nil)
}

func (s *Server) renderPairIndex(w http.ResponseWriter, r *http.Request, status int, fe *views.FormError) {
	ctx := r.Context()
	me := userFrom(ctx)
	users, err := s.db.TeamUsers(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	names := map[int64]string{}
	vm := views.PairIndex{Err: fe}
	for _, u := range users {
		names[u.ID] = u.Username
		if u.ID != me.ID {
			vm.Colleagues = append(vm.Colleagues, views.PairOption{Value: strconv.FormatInt(u.ID, 10), Label: u.Username})
		}
	}
	d := s.deck()
	for _, c := range d.Cards {
		if !c.Plain {
			vm.Cards = append(vm.Cards, views.PairOption{Value: c.ID, Label: c.Question})
		}
	}
	list, err := s.db.PairsOf(ctx, me.ID, 20)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	for _, p := range list {
		item := views.PairListItem{Code: p.Code, State: string(p.State), When: p.CreatedAt, Role: "you interviewed", With: names[p.Candidate]}
		if p.Candidate == me.ID {
			item.Role, item.With = "you answered", names[p.Interviewer]
		}
		if c, ok := d.Card(p.CardID); ok && (p.State != pair.Waiting || p.Interviewer == me.ID) {
			item.Question = c.Question
		} else {
			item.Question = "A question not shown yet"
		}
		vm.Sessions = append(vm.Sessions, item)
	}
	p := s.page(r, "Interview a colleague")
	p.CSS = append(p.CSS, s.assets.URL("pair.css"))
	s.render(w, r, status, views.PairIndexPage(p, vm))
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
	card, ok := s.pairCard(r.PostFormValue("card"))
	if !ok {
		s.renderPairIndex(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: "That card is not in the deck (or has no rubric); choose another."})
		return
	}
	target := card.Timing.Deeper
	if target <= 0 {
		target = defaultPairTarget
	}
	sess, err := pair.Open(pairCode(), me.ID, other.ID, card.ID, target, s.now())
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

// pairCard is the chosen card, or a random one with a rubric when none is chosen.
func (s *Server) pairCard(id string) (*deck.Card, bool) {
	d := s.deck()
	if id != "" {
		c, ok := d.Card(id)
		return c, ok && !c.Plain
	}
	var pool []*deck.Card
	for _, c := range d.Cards {
		if !c.Plain {
			pool = append(pool, c)
		}
	}
	if len(pool) == 0 {
		return nil, false
	}
	n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(pool))))
	return pool[n.Int64()], true
}

func pairCode() string {
	b := make([]byte, 12)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
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

func (s *Server) pairLive(r *http.Request, sess *pair.Session, role pair.Role) views.PairLive {
	other := sess.Candidate
	if role == pair.Candidate {
		other = sess.Interviewer
	}
	l := views.PairLive{Code: sess.Code, State: string(sess.State), TargetMS: sess.Target.Milliseconds(),
		UsedMS: sess.Used(s.now()).Milliseconds()}
	if u, err := s.db.UserByID(r.Context(), other); err == nil {
		l.With = u.Username
	}
	if !sess.StartedAt.IsZero() {
		l.StartedMS = sess.StartedAt.UnixMilli()
	}
	if sess.State == pair.Done {
		l.Level, l.Hits, l.Notes = sess.Level, len(sess.PitfallsHit), sess.Notes
	}
	return l
}

func (s *Server) pairPage(w http.ResponseWriter, r *http.Request) {
	sess, role, ok := s.pairFor(w, r)
	if !ok {
		return
	}
	s.renderPair(w, r, http.StatusOK, sess, role, nil)
}

func (s *Server) renderPair(w http.ResponseWriter, r *http.Request, status int, sess *pair.Session, role pair.Role, fe *views.FormError) {
	card, ok := s.deck().Card(sess.CardID)
	if !ok {
		s.fail(w, r, errStatus(http.StatusGone, "This session's card is no longer in the deck."))
		return
	}
	live := s.pairLive(r, sess, role)
	p := s.page(r, "Pair interview", "voice.js", "pair.js")
	p.CSS = append(p.CSS, s.assets.URL("pair.css"), s.assets.URL("voice.css"))
	w.Header().Set("Cache-Control", "no-store")
	if role == pair.Candidate {
		// Only the question, and only once the clock runs: never the rubric.
		vm := views.PairCandidate{Live: live, Recorder: views.Recorder{CardID: card.ID, Mode: "study", Depth: "deeper", Target: sess.Target}}
		if sess.State != pair.Waiting {
			vm.Question = card.Question
		}
		s.render(w, r, status, views.PairCandidatePage(p, vm))
		return
	}
	vm := views.PairInterviewer{Live: live, Card: card, Here: s.pairs.Present(sess.Code, pair.Candidate), Err: fe}
	vm.Pitfalls = make([]bool, len(card.Pitfalls))
	for _, i := range sess.PitfallsHit {
		if i < len(vm.Pitfalls) {
			vm.Pitfalls[i] = true
		}
	}
	s.render(w, r, status, views.PairInterviewerPage(p, vm))
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
	if err := s.db.SavePair(r.Context(), *sess, pair.Waiting); err != nil && !errors.Is(err, store.ErrConflict) {
		s.fail(w, r, err)
		return
	}
	s.pairs.Changed(sess.Code)
	http.Redirect(w, r, "/pair/"+sess.Code, http.StatusSeeOther)
}

func (s *Server) pairFinish(w http.ResponseWriter, r *http.Request) {
	sess, role, ok := s.pairFor(w, r)
	if !ok {
		return
	}
	card, _ := s.deck().Card(sess.CardID)
	level, err := strconv.Atoi(r.PostFormValue("level"))
	if err != nil {
		level = -1
	}
	r.ParseForm()
	var hit []int
	for _, v := range r.PostForm["pitfall"] {
		i, err := strconv.Atoi(v)
		if err != nil {
			i = -1
		}
		hit = append(hit, i)
	}
	notes := r.PostFormValue("notes")
	if len(notes) > 4000 {
		notes = notes[:4000]
	}
	nPitfalls := 0
	if card != nil {
		nPitfalls = len(card.Pitfalls)
	}
	if err := sess.Finish(userFrom(r.Context()).ID, level, hit, nPitfalls, notes, s.now()); err != nil {
		s.pairRefused(w, r, sess, role, err)
		return
	}
	n, _ := rand.Int(rand.Reader, big.NewInt(1<<31))
	if err := s.db.FinishPair(r.Context(), *sess, n.Int64()); err != nil && !errors.Is(err, store.ErrConflict) {
		s.fail(w, r, err)
		return
	}
	s.pairs.Changed(sess.Code)
	http.Redirect(w, r, "/pair/"+sess.Code, http.StatusSeeOther)
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
	if err := s.db.SavePair(r.Context(), *sess, from); err != nil && !errors.Is(err, store.ErrConflict) {
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
