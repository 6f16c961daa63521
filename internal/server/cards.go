package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/studyview"
	"github.com/rehearse/rehearse/internal/views"
)

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	if s.sendToSetup(w, r) {
		return
	}
	d := s.deck()
	u := userFrom(r.Context())
	h := views.HomePage{Total: d.Len(), SignedIn: u != nil}
	var plan study.Plan
	now, loc := s.now(), time.UTC
	if u != nil {
		var err error
		if plan, err = s.queueFor(readCtx(r), u, d.Cards, now, 0); err != nil { // study.go
			s.fail(w, r, err)
			return
		}
		loc = userLocation(u)
		h.Now = studyview.HomeNow(plan.Queue, d.Cards, plan.States, s.newLimit(u, plan.States, now), now, loc)
		if c, ok := countdown(u, d.Cards, plan.States, now); ok {
			h.Now.Countdown, h.Now.CountdownRest = c.Parts()
		}
	}
	h.Topics = studyview.Topics(d.Topics(), plan.States, now, loc)
	s.render(w, r, http.StatusOK, views.Home(s.page(r, ""), h))
}

func (s *Server) topic(w http.ResponseWriter, r *http.Request) {
	t, ok := s.deck().TopicBySlug(chi.URLParam(r, "slug"))
	if !ok {
		s.notFound(w, r)
		return
	}
	v := views.TopicPage{Name: t.Name, Slug: t.Slug, Cards: t.Cards}
	if u := userFrom(r.Context()); u != nil {
		states, err := s.db.QueueStates(readCtx(r), u.ID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		now := s.now()
		end := study.DayEnd(now, userLocation(u))
		for _, c := range t.Cards {
			st, _ := states.Get(c.ID)
			v.Status = append(v.Status, studyview.CardStatus(st, now, end))
		}
	}
	s.render(w, r, http.StatusOK, views.Topic(s.page(r, t.Name), v))
}

func (s *Server) card(w http.ResponseWriter, r *http.Request) {
	d := s.deck()
	c, ok := d.Card(chi.URLParam(r, "id"))
	if !ok {
		s.notFound(w, r)
		return
	}
	v := views.CardPage{Card: c, TopicSlug: topicSlugOf(s, c.Topic), Depth: "basics"}
	if u := userFrom(r.Context()); u != nil {
		v.Depth = u.Settings.DefaultDepth
	}
	if d := queryValues(r).Get("depth"); d == "basics" || d == "solid" || d == "deeper" {
		v.Depth = d
	}
	u := userFrom(r.Context())
	var err error
	if u != nil {
		prog, err := s.cardProgress(r, c)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		v.Progress = views.CardProgress(prog)
	}
	if v.Simulation, err = s.cachedCardSimulation(r, d, c); err != nil { // cardcache.go
		s.fail(w, r, err)
		return
	}
	p := s.page(r, c.Question, s.cardScripts()...)
	if v.Simulation != nil {
		p.CSS = append(p.CSS, s.assets.URL("sim.css"))
	}
	if u != nil {
		canEdit, err := s.canEdit(readCtx(r), u)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		v.Actions = views.CardActions(c.ID, canEdit)
		if queryValues(r).Get("saved") == "1" {
			p.Notice = "Saved. Study progress on this card is kept."
		}
	}
	s.render(w, r, http.StatusOK, views.Card(p, v))
}

func topicSlugOf(s *Server, name string) string {
	for _, t := range s.deck().Topics() {
		if t.Name == name {
			return t.Slug
		}
	}
	return ""
}

// searchLimit is how many results a search page shows.
const searchLimit = 50

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	v := views.SearchPage{Query: q}
	switch {
	case len(q) > 200:
		v.Error = "The search is longer than 200 characters; shorten it."
	case q != "":
		d := s.deck()
		v.Hits = d.Search(q, searchLimit)
		if len(v.Hits) == 0 { // every word must match: try the query with its typos fixed
			if fixed, ok := d.Suggest(q); ok {
				if hits := d.Search(fixed, searchLimit); len(hits) > 0 {
					v.Suggestion, v.Corrected, v.Hits = fixed, true, hits
				}
			}
		}
	}
	s.render(w, r, http.StatusOK, views.Search(s.page(r, "Search"), v))
}
