package server

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"
	_ "time/tzdata" // time zone names must validate even on hosts without a zoneinfo database

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/mockview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/studyview"
	"github.com/rehearse/rehearse/internal/views"
)

// swapHeader marks study.js's requests: the answer's response is then the next page itself
// (200, its address in studyURLHeader) rather than a redirect that costs a second request.
const (
	swapHeader     = "X-Rehearse-Swap"
	studyURLHeader = "X-Rehearse-URL"
)

func (s *Server) studyRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Get("/study", s.study)
		r.Post("/study/answer", s.studyAnswer)
		r.Post("/study/undo", s.studyUndo)
		r.Get("/settings", s.settingsPage)
		r.Post("/settings", s.saveSettings)
		r.Post("/settings/fit", s.fitPost)
		r.Post("/settings/fit/revert", s.fitRevert)
		r.Get("/stats", s.stats)
	})
	s.recordingRoutes(r) // recording.go: /recordings
}

// locations caches loaded time zones: LoadLocation reads and parses zoneinfo on every call.
var locations sync.Map // name → *time.Location

// userLocation is the user's time zone, UTC when unset or unknown.
func userLocation(u *store.User) *time.Location {
	name := u.Settings.TimeZone
	if name == "" || name == "UTC" { // no zone chosen, or the default: most users, on every page
		return time.UTC
	}
	if v, ok := locations.Load(name); ok {
		return v.(*time.Location)
	}
	loc, err := account.LoadZone(name)
	if err != nil {
		return time.UTC
	}
	locations.Store(name, loc)
	return loc
}

// scheduler is FSRS with the user's settings (fsrs.go).
func scheduler(u *store.User) srs.Scheduler { return userScheduler(u) }

// studyScope resolves ?topic= or ?tag= (query or form) to the cards to study, in deck order,
// with ?new=, a higher new-card limit for today asked for by "study ahead" (suspend.go).
func (s *Server) studyScope(r *http.Request) ([]*deck.Card, views.StudyFilter, error) {
	cards, f, err := s.studyCards(r)
	f.NewLimit = aheadLimit(formValue(r, "new"))
	return cards, f, err
}

// studyCards is studyScope's cards and filter.
func (s *Server) studyCards(r *http.Request) ([]*deck.Card, views.StudyFilter, error) {
	d := s.deck()
	if slug := formValue(r, "topic"); slug != "" {
		t, ok := d.TopicBySlug(slug)
		if !ok {
			return nil, views.StudyFilter{}, errStatus(http.StatusNotFound, "There is no topic called “"+slug+"”.")
		}
		return t.Cards, views.StudyFilter{Topic: slug, Label: t.Name}, nil
	}
	if tag := formValue(r, "tag"); tag != "" {
		var cards []*deck.Card
		for _, c := range d.Cards {
			if slices.Contains(c.Tags, tag) {
				cards = append(cards, c)
			}
		}
		if len(cards) == 0 {
			return nil, views.StudyFilter{}, errStatus(http.StatusNotFound, "No card has the tag “"+tag+"”.")
		}
		return cards, views.StudyFilter{Tag: tag, Label: "tag " + tag}, nil
	}
	return d.Cards, views.StudyFilter{}, nil
}

// studyURL is /study keeping the session's filter, plus extra query fields.
func studyURL(f views.StudyFilter, extra url.Values) string {
	q := url.Values{}
	if f.Topic != "" {
		q.Set("topic", f.Topic)
	}
	if f.Tag != "" {
		q.Set("tag", f.Tag)
	}
	if f.NewLimit > 0 {
		q.Set("new", strconv.Itoa(f.NewLimit))
	}
	for k, v := range extra {
		q[k] = v
	}
	if len(q) == 0 {
		return "/study"
	}
	return "/study?" + q.Encode()
}

func (s *Server) study(w http.ResponseWriter, r *http.Request) {
	cards, filter, err := s.studyScope(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := queryValues(r)
	if id := q.Get("suspended"); id != "" { // suspend.go: said once, after the redirect
		if c, ok := s.deck().Card(id); ok {
			r = r.WithContext(withSuspendedNote(r.Context(), c.Question))
		}
	}
	s.showStudy(w, r, cards, filter, q.Get("card"), q.Get("reveal") == "1", q.Get("shown_at"))
}

// showStudy renders the study page: the next card of the queue over cards, or pin (a card id)
// when it names one. The answer and undo handlers call it too, for study.js.
func (s *Server) showStudy(w http.ResponseWriter, r *http.Request, cards []*deck.Card, filter views.StudyFilter,
	pin string, revealed bool, shownAt string) {
	ctx, u, now := readCtx(r), userFrom(r.Context()), s.now()
	plan, err := s.queueFor(ctx, u, cards, now, filter.NewLimit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := views.StudyPage{Filter: filter, Learning: len(plan.Learning), Review: len(plan.Review), New: len(plan.New),
		Depth: u.Settings.DefaultDepth, Suspended: suspendedNote(r.Context())}
	v.Card = plan.Next()
	// A pinned card: the reveal form and an undo bring back the exact card they concern.
	if pin != "" {
		if c, ok := s.deck().Card(pin); ok {
			v.Card = c
		}
	}
	if last, err := s.db.LastStudyReview(ctx, u.ID); err == nil {
		v.UndoQuestion = last.CardID
		if c, ok := s.deck().Card(last.CardID); ok {
			v.UndoQuestion = c.Question
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, err)
		return
	}
	if v.Card == nil {
		v.NextDue = studyview.NextDue(plan.NextAt, now, userLocation(u))
		if n := studyview.Ahead(cards, plan); n > 0 {
			ahead := filter
			ahead.NewLimit = plan.NewToday + n
			v.AheadCount, v.AheadURL = n, studyURL(ahead, nil)
		}
		s.renderStudy(w, r, v)
		return
	}
	st, _, err := s.db.CardState(ctx, u.ID, v.Card.ID) // the queue's states hold State and Due only
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.Kind = studyview.QueueKind(st)
	v.Reps = st.Reps
	v.Revealed = revealed
	v.ShownAt = now.UnixMilli()
	if v.Revealed && shownAt != "" { // a failed parse allocates its error: not for every question
		if t, err := strconv.ParseInt(shownAt, 10, 64); err == nil {
			if at := time.UnixMilli(t); !at.After(now) && now.Sub(at) <= study.MaxAnswerTime {
				v.ShownAt = t
			}
		}
	}
	v.Points, v.VoiceNote = mockview.KeyPoints(v.Card, v.Depth), s.voiceNote()
	v.Buttons = studyview.Buttons(scheduler(u), v.Card.ID, st, now)
	s.renderStudy(w, r, v)
}

// queueFor builds the user's study queue over cards at now, with today's new-card limit
// raised to ahead when that is higher (study ahead).
func (s *Server) queueFor(ctx context.Context, u *store.User, cards []*deck.Card, now time.Time, ahead int) (study.Plan, error) {
	return study.LoadQueue(ctx, s.db, u.ID, cards, now, userLocation(u), func(states srs.States) int {
		return max(s.newLimit(u, states, now), ahead)
	})
}

func (s *Server) renderStudy(w http.ResponseWriter, r *http.Request, v views.StudyPage) {
	p := s.page(r, "Study", "voice.js", "study.js")
	p.CSS = append(p.CSS, s.assets.URL("study.css"), s.assets.URL("voice.css"))
	s.render(w, r, http.StatusOK, views.Study(p, v))
}

func (s *Server) studyAnswer(w http.ResponseWriter, r *http.Request) {
	ctx, u, now := r.Context(), userFrom(r.Context()), s.now()
	cards, filter, err := s.studyScope(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	c, ok := s.deck().Card(r.PostFormValue("card"))
	if !ok {
		s.fail(w, r, errStatus(http.StatusNotFound, "That card is not in the deck any more."))
		return
	}
	n, err := strconv.Atoi(r.PostFormValue("rating"))
	rating := srs.Rating(n)
	if err != nil || !rating.Valid() {
		s.fail(w, r, errStatus(http.StatusUnprocessableEntity, "Choose a rating from 1 (again) to 4 (easy)."))
		return
	}
	a := study.Answer{UserID: u.ID, CardID: c.ID, Rating: rating, At: now, Mode: study.ModeStudy, ShownReps: -1}
	if ms, err := strconv.ParseInt(r.PostFormValue("shown_at"), 10, 64); err == nil {
		a.Took = now.Sub(time.UnixMilli(ms))
	}
	// The form carries the answer count it was shown with: a second submit of the same form
	// (double click, back button) must not answer the card twice.
	if reps, err := strconv.Atoi(r.PostFormValue("reps")); err == nil && reps >= 0 {
		a.ShownReps = reps
	}
	res, err := study.Rate(ctx, s.db, scheduler(u), a)
	if err == nil {
		s.metrics.AnswerRecorded()
		s.attachRecording(r, u.ID, res.LogID)
	}
	switch {
	case errors.Is(err, study.ErrStale) && wantsJSON(r):
		s.fail(w, r, errStaleAnswer)
	case err != nil && !errors.Is(err, study.ErrStale):
		s.fail(w, r, err)
	case wantsJSON(r):
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "log_id": res.LogID})
	case r.Header.Get(swapHeader) != "":
		// A stale answer too shows the next card: what the user wanted is already recorded.
		w.Header().Set(studyURLHeader, studyURL(filter, nil))
		s.showStudy(w, r, cards, filter, "", false, "")
	default:
		http.Redirect(w, r, studyURL(filter, nil), http.StatusSeeOther)
	}
}

// errStaleAnswer tells a JSON client that its rating was not stored.
var errStaleAnswer = errStatus(http.StatusConflict, "That card was already answered; nothing was recorded.")

func (s *Server) studyUndo(w http.ResponseWriter, r *http.Request) {
	cards, filter, err := s.studyScope(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id, err := s.db.UndoLast(r.Context(), userFrom(r.Context()).ID, s.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		id = ""
	case errors.Is(err, study.ErrStale):
		s.fail(w, r, errStatus(http.StatusConflict, "That answer can no longer be undone: the card was answered again in a mock interview since."))
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	to := studyURL(filter, nil)
	if id != "" {
		to = studyURL(filter, url.Values{"card": {id}})
	}
	if r.Header.Get(swapHeader) != "" {
		w.Header().Set(studyURLHeader, to)
		s.showStudy(w, r, cards, filter, id, false, "")
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// cardProgress words the signed-in user's spaced-repetition state for a card on its page.
func (s *Server) cardProgress(r *http.Request, c *deck.Card) (views.ProgressView, error) {
	u := userFrom(r.Context())
	loc := userLocation(u)
	prog, err := s.db.CardProgress(readCtx(r), u.ID, c.ID) // state, answers and recordings in one query
	if err != nil {
		return views.ProgressView{}, err
	}
	v := studyview.Progress(prog, scheduler(u), s.now(), loc, c)
	v.Recordings = mockview.RecordingRows(prog.Recordings, loc)
	v.Suspended, err = s.db.IsSuspended(readCtx(r), u.ID, c.ID)
	return v, err
}
