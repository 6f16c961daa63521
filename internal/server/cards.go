package server

import (
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	if s.sendToSetup(w, r) {
		return
	}
	d := s.deck()
	u := userFrom(r.Context())
	h := views.HomePage{Total: d.Len(), SignedIn: u != nil}
	var states srs.States
	if u != nil {
		now := s.now()
		var q study.Queue
		var err error
		q, states, err = s.queueFor(readCtx(r), u, d.Cards, now) // study.go
		if err != nil {
			s.fail(w, r, err)
			return
		}
		h.Now = homeNow(q, d.Cards, states, s.newLimit(u, states, now))
		if c, ok := countdown(u, d.Cards, states, now); ok {
			h.Now.Countdown, h.Now.CountdownRest = c.Parts()
		}
		loc, next := userLocation(u), q.NextAt
		if next.IsZero() && h.Now.Due == 0 { // only new cards now: say when reviews resume
			next = nextReview(d.Cards, states, now, loc)
		}
		if !next.IsZero() {
			h.Now.NextDue = "The next card is due in " + srs.FormatInterval(next.Sub(now)) + " (" + whenText(next, now, loc) + ")."
		}
		end := study.DayEnd(now, loc)
		for _, t := range d.Topics() {
			ts := views.TopicSummary{Name: t.Name, Slug: t.Slug, Count: len(t.Cards)}
			for _, c := range t.Cards {
				if st, ok := states.Get(c.ID); ok && st.State != srs.New {
					ts.Studied++
					if study.IsDue(st, now, end) {
						ts.Due++
					}
				}
			}
			h.Topics = append(h.Topics, ts)
		}
	} else {
		for _, t := range d.Topics() {
			h.Topics = append(h.Topics, views.TopicSummary{Name: t.Name, Slug: t.Slug, Count: len(t.Cards)})
		}
	}
	s.render(w, r, http.StatusOK, views.Home(s.page(r, ""), h))
}

// homeNow sums up the queue for the home page's first lines.
func homeNow(q study.Queue, cards []*deck.Card, states srs.States, newPerDay int) views.HomeNow {
	n := views.HomeNow{Due: len(q.Learning) + len(q.Review), New: len(q.New), NewLimit: newPerDay}
	for _, c := range cards {
		if st, ok := states.Get(c.ID); !ok || st.State == srs.New {
			n.Unseen++
		}
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
			v.Status = append(v.Status, cardStatus(st, now, end))
		}
	}
	s.render(w, r, http.StatusOK, views.Topic(s.page(r, t.Name), v))
}

// cardStatus words a stored state for the topic page's list.
func cardStatus(st srs.Card, now, end time.Time) views.CardStatus {
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
