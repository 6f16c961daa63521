package server

import (
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Mock-interview feature: setup, one step at a time under a server-side clock, summary and
// history. All state lives in the store, so a reload or a restart resumes where the user was.

func (s *Server) mockRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Get("/mock", s.mockSetup)
		r.Get("/mock/new", s.mockSetup)
		r.Post("/mock", s.mockCreate)
		r.Get("/mock/history", s.mockHistory)
		r.Get("/mock/{id}", s.mockStep)
		r.Post("/mock/{id}/answer", s.mockAnswer)
		r.Post("/mock/{id}/check", s.mockCheck)
		r.Post("/mock/{id}/followup", s.mockFollowUp)
		r.Post("/mock/{id}/rate", s.mockRate)
		r.Get("/mock/{id}/end", s.mockEnd)
		r.Post("/mock/{id}/abandon", s.mockAbandon)
		r.Get("/mock/{id}/summary", s.mockSummary)
	})
}

// mockPage is the layout model with the mock script and stylesheet.
func (s *Server) mockPage(r *http.Request, title string) views.Page {
	p := s.page(r, title, "voice.js", "mock.js")
	p.CSS = append(p.CSS, s.assets.URL("mock.css"), s.assets.URL("voice.css"))
	return p
}

// mockForm is the setup form as submitted (or prefilled from a "same questions" link).
type mockForm struct {
	topics, tags []string
	n            string
	depth, clock string
	followUps    bool
	seed, timer  string
	record       bool
}

func readMockForm(q url.Values, submitted bool) mockForm {
	f := mockForm{
		topics: q["topic"], tags: q["tag"], n: strings.TrimSpace(q.Get("n")),
		depth: q.Get("depth"), clock: q.Get("clock"),
		seed: strings.TrimSpace(q.Get("seed")), timer: strings.TrimSpace(q.Get("timer")),
		followUps: q.Get("followups") != "" && q.Get("followups") != "0",
		record:    q.Get("record") != "" && q.Get("record") != "0",
	}
	if !submitted { // a link or a fresh form: defaults for what it does not say
		f.record = q.Get("record") != "0"
	}
	if f.n == "" {
		f.n = "5"
	}
	if f.depth == "" {
		f.depth = "basics"
	}
	if f.clock == "" {
		f.clock = "soft"
	}
	return f
}

func (s *Server) mockSetup(w http.ResponseWriter, r *http.Request) {
	f := readMockForm(r.URL.Query(), false)
	if r.URL.Query().Get("depth") == "" {
		f.depth = userFrom(r.Context()).Settings.DefaultDepth
	}
	s.renderMockSetup(w, r, http.StatusOK, f, nil)
}

func (s *Server) renderMockSetup(w http.ResponseWriter, r *http.Request, status int, f mockForm, fe *views.FormError) {
	d := s.deck()
	v := views.MockSetup{N: f.n, Depth: f.depth, FollowUps: f.followUps, Clock: f.clock, Seed: f.seed,
		Timer: f.timer, RecordReviews: f.record, Err: fe}
	for _, t := range d.Topics() {
		v.Topics = append(v.Topics, views.MockOption{Value: t.Slug, Label: t.Name, Checked: slices.Contains(f.topics, t.Slug)})
	}
	for _, t := range d.Tags() {
		v.Tags = append(v.Tags, views.MockOption{Value: t, Label: t, Checked: slices.Contains(f.tags, t)})
	}
	recent, err := s.db.MockHistory(r.Context(), userFrom(r.Context()).ID, 1, s.now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(recent) == 1 && recent[0].Status == store.MockActive {
		v.ActiveID = recent[0].ID
	}
	s.render(w, r, status, views.MockSetupPage(s.mockPage(r, "Mock interview"), v))
}

// parseSeed accepts a number as is and hashes any other text, so "team-october" works too.
func parseSeed(text string) uint64 {
	if n, err := strconv.ParseUint(text, 10, 63); err == nil {
		return n
	}
	h := fnv.New64a()
	h.Write([]byte(text))
	return h.Sum64() >> 1 // keep it positive when stored as a signed integer
}

func (s *Server) mockCreate(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, errStatus(http.StatusBadRequest, "The form could not be read."))
		return
	}
	u := userFrom(r.Context())
	f := readMockForm(r.PostForm, true)
	fe := &views.FormError{Fields: map[string]string{}}
	st := store.MockSettings{Depth: f.depth, Clock: f.clock, FollowUps: f.followUps, RecordReviews: f.record}
	n, err := strconv.Atoi(f.n)
	if err != nil || n < 1 || n > interview.MaxQuestions {
		fe.Fields["n"] = "Choose between 1 and 20 questions."
	}
	st.N = n
	if f.depth != "basics" && f.depth != "solid" && f.depth != "deeper" {
		fe.Form = "Choose a depth: basics, solid or deeper."
	}
	if f.clock != "soft" && f.clock != "strict" {
		fe.Form = "Choose a clock: soft or strict."
	}
	if f.timer != "" {
		sec, err := strconv.Atoi(f.timer)
		if err != nil || sec < 1 || sec > 600 {
			fe.Fields["timer"] = "The timer is a whole number of seconds from 1 to 600, or empty."
		}
		st.Target = time.Duration(sec) * time.Second
	}
	if len(f.seed) > 40 {
		fe.Fields["seed"] = "The seed is at most 40 characters."
	}
	d := s.deck()
	var topicNames []string
	for _, slug := range f.topics {
		t, ok := d.TopicBySlug(slug)
		if !ok {
			fe.Form = "Unknown topic " + strconv.Quote(slug) + "."
			continue
		}
		st.Topics = append(st.Topics, slug)
		topicNames = append(topicNames, t.Name)
	}
	// Only the deck's own tags are stored, each once (a made-up tag would be kept forever).
	for _, tag := range f.tags {
		if _, ok := slices.BinarySearch(d.Tags(), tag); !ok {
			fe.Form = "Unknown tag " + strconv.Quote(cut(tag, 40)) + "."
		} else if !slices.Contains(st.Tags, tag) {
			st.Tags = append(st.Tags, tag)
		}
	}
	if fe.Form != "" || len(fe.Fields) > 0 {
		s.renderMockSetup(w, r, http.StatusUnprocessableEntity, f, fe)
		return
	}
	st.Seeded = f.seed != ""
	if st.Seeded {
		st.Seed = parseSeed(f.seed)
	} else {
		st.Seed = rand.Uint64() >> 1
	}
	var states srs.States
	if !st.Seeded {
		if states, err = s.db.CardStates(r.Context(), u.ID); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	now := s.now()
	cards, err := interview.Select(d.Cards, states, now, interview.Options{N: n, Topics: topicNames, Tags: st.Tags,
		Seeded: st.Seeded, Seed: st.Seed, Scheduler: scheduler(u)})
	if errors.Is(err, interview.ErrNoCards) {
		fe.Form = "No card matches these topics and tags; tick fewer."
		s.renderMockSetup(w, r, http.StatusUnprocessableEntity, f, fe)
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	qs := make([]store.MockQuestion, len(cards))
	for i, c := range cards {
		qs[i] = mockQuestionFor(c, st)
	}
	sess, err := s.db.CreateMockSession(r.Context(), u.ID, st, qs, now)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.metrics.MockStarted()
	http.Redirect(w, r, mockURL(sess.ID, ""), http.StatusSeeOther)
}

// mockQuestionFor fixes a question's clocks and follow-up when the session starts. The follow-up
// gets half the basics target (or half the override).
func mockQuestionFor(c *deck.Card, st store.MockSettings) store.MockQuestion {
	q := store.MockQuestion{CardID: c.ID, Target: st.Target, FollowUpIndex: -1}
	if q.Target == 0 {
		switch st.Depth {
		case "solid":
			q.Target = c.Timing.Solid
		case "deeper":
			q.Target = c.Timing.Deeper
		default:
			q.Target = c.Timing.Basics
		}
	}
	if st.FollowUps {
		q.FollowUpIndex = interview.FollowUpIndex(st.Seed, c.ID, len(c.FollowUps))
		base := c.Timing.Basics
		if st.Target > 0 {
			base = st.Target
		}
		q.FollowUpTarget = base / 2
	}
	return q
}

func mockURL(id int64, suffix string) string {
	return "/mock/" + strconv.FormatInt(id, 10) + suffix
}
