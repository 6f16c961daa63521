package server

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

const maxTyped = 10000 // characters kept of a typed answer

// mockTurn is the session and its current question, loaded for one request.
type mockTurn struct {
	u    *store.User
	sess *store.MockSession
	pos  int
	a    store.MockTurn
	card *deck.Card
}

func (t *mockTurn) strict() bool { return t.sess.Settings.Clock == "strict" }

// clock is the session's clock rules (interview.Clock).
func (t *mockTurn) clock() interview.Clock { return interview.Clock{Strict: t.strict()} }

// hasFollowUp reports whether this question gets a follow-up (the card may have lost it since).
func (t *mockTurn) hasFollowUp() bool {
	return t.a.FollowUpIndex >= 0 && t.a.FollowUpIndex < len(t.card.FollowUps)
}

func (t *mockTurn) progress() views.MockProgress {
	return views.MockProgress{SessionID: t.sess.ID, Pos: t.pos, N: len(t.sess.Answers)}
}

// loadMockSession loads the signed-in user's session named in the URL.
func (s *Server) loadMockSession(r *http.Request) (*store.MockSession, error) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		return nil, store.ErrNotFound
	}
	return s.db.MockSession(r.Context(), userFrom(r.Context()).ID, id, s.now())
}

// loadTurn loads the current question. It answers the request itself (and returns nil) when
// there is no current question, or when a posted "pos" is not the current one (a stale tab or a
// double submit): then the user is sent to wherever the session really is.
func (s *Server) loadTurn(w http.ResponseWriter, r *http.Request) *mockTurn {
	sess, err := s.loadMockSession(r)
	if err != nil {
		s.fail(w, r, err)
		return nil
	}
	pos := sess.Current()
	if sess.Status == store.MockActive && pos < 0 { // all rated but not closed (a crash in between)
		if err := s.db.FinishMockSession(r.Context(), sess.ID, store.MockFinished, s.now()); err != nil {
			s.fail(w, r, err)
			return nil
		}
		sess.Status = store.MockFinished
	}
	if sess.Status != store.MockActive {
		if sess.Status == store.MockAbandoned { // stale: make it stick
			s.db.FinishMockSession(r.Context(), sess.ID, store.MockAbandoned, s.now())
		}
		http.Redirect(w, r, mockURL(sess.ID, "/summary"), http.StatusSeeOther)
		return nil
	}
	if r.Method == http.MethodPost {
		if got, err := strconv.Atoi(r.PostFormValue("pos")); err != nil || got != pos {
			http.Redirect(w, r, mockURL(sess.ID, ""), http.StatusSeeOther)
			return nil
		}
	}
	a := sess.Answers[pos]
	c, ok := s.deck().Card(a.CardID)
	if !ok {
		s.fail(w, r, errStatus(http.StatusGone, "This question's card is no longer in the deck. End the session and start another."))
		return nil
	}
	return &mockTurn{u: userFrom(r.Context()), sess: sess, pos: pos, a: a, card: c}
}

// mockStep shows whatever the current question needs next.
func (s *Server) mockStep(w http.ResponseWriter, r *http.Request) {
	t := s.loadTurn(w, r)
	if t == nil {
		return
	}
	ctx, now, a := r.Context(), s.now(), t.a
	switch {
	case a.AnsweredAt.IsZero():
		shown := a.ShownAt
		if shown.IsZero() {
			if err := s.db.MarkMockShown(ctx, t.sess.ID, t.pos, now); err != nil {
				s.fail(w, r, err)
				return
			}
			shown = now
		}
		if t.clock().RanOut(shown, now, a.Target) {
			// The clock ran out while nobody submitted: an empty answer that took the whole target.
			s.submitMain(w, r, t, store.MockSubmission{At: now, Used: a.Target, Expired: true})
			return
		}
		s.render(w, r, http.StatusOK, views.MockQuestionPage(s.mockPage(r, "Mock interview"), views.MockQuestion{
			Progress: t.progress(), Card: t.card, Text: t.card.Question, Depth: t.sess.Settings.Depth,
			Target: a.Target, Remaining: t.clock().Remaining(shown, now, a.Target), Strict: t.strict(),
		}))
	case !a.Checked || !t.hasFollowUp():
		s.render(w, r, http.StatusOK, views.MockReviewPage(s.mockPage(r, "Mock interview"), s.reviewView(r, t)))
	case a.FollowUpAnsweredAt.IsZero():
		shown := a.FollowUpShownAt
		if shown.IsZero() {
			if err := s.db.MarkFollowUpShown(ctx, t.sess.ID, t.pos, now); err != nil {
				s.fail(w, r, err)
				return
			}
			shown = now
		}
		if t.clock().RanOut(shown, now, a.FollowUpTarget) {
			s.submitFollowUp(w, r, t, now, a.FollowUpTarget, "")
			return
		}
		s.render(w, r, http.StatusOK, views.MockQuestionPage(s.mockPage(r, "Mock interview: follow-up"), views.MockQuestion{
			Progress: t.progress(), Card: t.card, Text: t.card.FollowUps[a.FollowUpIndex].Question, FollowUp: true,
			Depth: t.sess.Settings.Depth, Target: a.FollowUpTarget, Remaining: t.clock().Remaining(shown, now, a.FollowUpTarget), Strict: t.strict(),
		}))
	default:
		s.render(w, r, http.StatusOK, views.MockFollowUpReviewPage(s.mockPage(r, "Mock interview"), views.MockFollowUpReview{
			Progress: t.progress(), Card: t.card, FollowUp: t.card.FollowUps[a.FollowUpIndex], Typed: a.FollowUpTyped,
			Used: a.FollowUpUsed, Target: a.FollowUpTarget, Expired: a.FollowUpUsed >= a.FollowUpTarget && t.strict(),
		}))
	}
}

// reviewView builds the checklists: the key points of the chosen depth and the pitfalls. Ticks
// come from the stored answer (the heuristic's guess until the user saves corrections); the "why"
// notes re-run the heuristic to explain them, in the card's own words.
func (s *Server) reviewView(r *http.Request, t *mockTurn) views.MockReview {
	a := t.a
	v := views.MockReview{Progress: t.progress(), Card: t.card, Depth: t.sess.Settings.Depth, Typed: a.Typed,
		Used: a.Used, Target: a.Target, Expired: a.Expired, HasFollowUp: t.hasFollowUp() && !a.Checked,
		Heuristic: heuristicText}
	// A transcript of the spoken answer is checked exactly like typed text, and its points are
	// ticked in advance until the user confirms the checklist.
	answer := a.Typed
	if recs, err := s.db.MockRecordings(r.Context(), t.u.ID, t.sess.ID); err == nil {
		for _, rec := range recs {
			if rec.MockPosition == t.pos && !rec.FollowUp {
				v.Spoken, v.TranscriptStatus, v.Transcript, v.RecordingID = rec.Spoken, rec.TranscriptStatus, rec.Transcript, rec.ID
			}
		}
	}
	if v.TranscriptStatus == "done" {
		answer = strings.TrimSpace(answer + "\n" + v.Transcript)
	}
	check := interview.CheckAnswer(t.card, t.sess.Settings.Depth, answer)
	covered, flagged := a.Covered, a.PitfallsHit
	if !a.Checked && v.TranscriptStatus == "done" {
		covered = append(slices.Clone(covered), check.Covered()...)
		flagged = append(slices.Clone(flagged), check.Flagged()...)
	}
	for _, i := range check.Points {
		item := views.MockCheckItem{Index: i, Block: t.card.Answer[i], Checked: slices.Contains(covered, i)}
		if answer != "" {
			item.Why = pointWhy(check.Bullets[i])
		}
		v.Bullets = append(v.Bullets, item)
	}
	for i, p := range t.card.Pitfalls {
		item := views.MockCheckItem{Index: i, Block: p, Checked: slices.Contains(flagged, i)}
		if answer != "" && i < len(check.Pitfalls) && check.Pitfalls[i].Flagged {
			item.Why = "flagged: your answer says " + strings.Join(check.Pitfalls[i].Matched, ", ")
		}
		v.Pitfalls = append(v.Pitfalls, item)
	}
	return v
}

const heuristicText = "Ticked in advance from what you typed: a point counts as made when your answer uses at least half of its distinctive words (up to four; synonyms and word forms count, and words every point of the card uses do not), or two thirds of all its words, or its opening label plus one more of its words. A pitfall is flagged when one sentence holds its quoted phrase or most of its distinctive words, with the same negation. Correct anything it got wrong."

// pointWhy says what the heuristic found for one point, in the card's words.
func pointWhy(bc interview.BulletCheck) string {
	if len(bc.Matched) == 0 {
		return "none of its key words found"
	}
	why := "found " + strings.Join(bc.Matched, ", ")
	if bc.LabelMade {
		why += " (the label “" + bc.Label + "”)"
	}
	return why
}

// typedText reads the optional typed answer, trimmed and capped.
func typedText(r *http.Request) string {
	t := strings.TrimSpace(r.PostFormValue("typed"))
	if utf8.RuneCountInString(t) > maxTyped {
		t = string([]rune(t)[:maxTyped])
	}
	return t
}

func (s *Server) mockAnswer(w http.ResponseWriter, r *http.Request) {
	t := s.loadTurn(w, r)
	if t == nil {
		return
	}
	if !t.a.AnsweredAt.IsZero() || t.a.ShownAt.IsZero() {
		http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
		return
	}
	now := s.now()
	used, expired, typed := t.clock().Used(t.a.ShownAt, now, t.a.Target, typedText(r))
	s.submitMain(w, r, t, store.MockSubmission{At: now, Used: used, Expired: expired, Typed: typed})
}

// submitMain stores the answer with the heuristic's ticks and moves on to the review.
func (s *Server) submitMain(w http.ResponseWriter, r *http.Request, t *mockTurn, sub store.MockSubmission) {
	if sub.Typed != "" {
		check := interview.CheckAnswer(t.card, t.sess.Settings.Depth, sub.Typed)
		sub.Covered, sub.Pitfalls = check.Covered(), check.Flagged()
	}
	if err := s.db.SubmitMockAnswer(r.Context(), t.sess.ID, t.pos, sub); err != nil && !errors.Is(err, store.ErrStale) {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
}

// checklist reads the ticked boxes named name, each an index below n.
func checklist(r *http.Request, name string, n int) ([]int, error) {
	var out []int
	for _, v := range r.PostForm[name] {
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= n {
			return nil, errStatus(http.StatusBadRequest, fmt.Sprintf("The checklist item %q does not exist on this card.", v))
		}
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out, nil
}

// saveChecklist stores the corrected checklists posted with the review form.
func (s *Server) saveChecklist(r *http.Request, t *mockTurn) error {
	covered, err := checklist(r, "covered", len(t.card.Answer))
	if err != nil {
		return err
	}
	pitfalls, err := checklist(r, "pitfall", len(t.card.Pitfalls))
	if err != nil {
		return err
	}
	err = s.db.SaveMockChecklist(r.Context(), t.sess.ID, t.pos, covered, pitfalls)
	if errors.Is(err, store.ErrStale) {
		return nil // already rated meanwhile: nothing left to correct
	}
	return err
}

func (s *Server) mockCheck(w http.ResponseWriter, r *http.Request) {
	t := s.loadTurn(w, r)
	if t == nil {
		return
	}
	if t.a.AnsweredAt.IsZero() || t.a.Checked {
		http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
		return
	}
	if err := s.saveChecklist(r, t); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
}

func (s *Server) mockFollowUp(w http.ResponseWriter, r *http.Request) {
	t := s.loadTurn(w, r)
	if t == nil {
		return
	}
	a := t.a
	if a.FollowUpShownAt.IsZero() || !a.FollowUpAnsweredAt.IsZero() {
		http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
		return
	}
	now := s.now()
	used, _, typed := t.clock().Used(a.FollowUpShownAt, now, a.FollowUpTarget, typedText(r))
	s.submitFollowUp(w, r, t, now, used, typed)
}

func (s *Server) submitFollowUp(w http.ResponseWriter, r *http.Request, t *mockTurn, now time.Time, used time.Duration, typed string) {
	if err := s.db.SubmitFollowUp(r.Context(), t.sess.ID, t.pos, now, used, typed); err != nil && !errors.Is(err, store.ErrStale) {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
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
	a, ctx, now := t.a, r.Context(), s.now()
	if t.hasFollowUp() {
		if !a.Checked || a.FollowUpAnsweredAt.IsZero() { // the follow-up comes first
			http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
			return
		}
	} else if a.AnsweredAt.IsZero() {
		http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
		return
	} else if !a.Checked && r.PostFormValue("checklist") != "" {
		if err := s.saveChecklist(r, t); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	err = s.db.ClaimMockRating(ctx, t.sess.ID, t.pos, rating, now)
	if errors.Is(err, store.ErrStale) {
		http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	if t.sess.Settings.RecordReviews {
		s.recordMockReview(r, t, srs.Rating(rating), now)
	}
	if t.pos == len(t.sess.Answers)-1 {
		if err := s.db.FinishMockSession(ctx, t.sess.ID, store.MockFinished, now); err != nil {
			s.fail(w, r, err)
			return
		}
		s.metrics.MockFinished()
		http.Redirect(w, r, mockURL(t.sess.ID, "/summary"), http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, mockURL(t.sess.ID, ""), http.StatusSeeOther)
}

// recordMockReview feeds the rating to the study schedule through the same use case as study.
// The mock carries on if it fails: the rating is already saved, and the summary shows the review
// as not recorded.
func (s *Server) recordMockReview(r *http.Request, t *mockTurn, rating srs.Rating, now time.Time) {
	ctx := r.Context()
	res, err := study.Rate(ctx, s.db, scheduler(t.u), study.Answer{UserID: t.u.ID, CardID: t.card.ID, Rating: rating,
		At: now, Took: t.a.Used, Mode: study.ModeMock, ShownReps: -1})
	if err == nil {
		s.metrics.AnswerRecorded()
		err = s.db.SetMockReviewLog(ctx, t.sess.ID, t.pos, res.LogID)
	}
	if err != nil {
		s.log.WarnContext(ctx, "mock review not recorded", "session", t.sess.ID, "card", t.card.ID, "err", err)
	}
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
	v := views.MockEnd{Progress: views.MockProgress{SessionID: sess.ID, Pos: max(sess.Current(), 0), N: len(sess.Answers)}}
	for _, a := range sess.Answers {
		if a.Rating > 0 {
			v.Answered++
		}
	}
	s.render(w, r, http.StatusOK, views.MockEndPage(s.mockPage(r, "End the mock interview?"), v))
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
