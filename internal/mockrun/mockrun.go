// Package mockrun runs a mock interview over the store: it starts a session, shows its
// questions under the server-side clock, takes answers, checklists, follow-ups and ratings, and
// closes the session after its last question. The rules are interview's; every state lives in
// the store, so a reload or a restart resumes where the user was. Callers pass the store, the
// deck and the time.
package mockrun

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
)

// Store is what a mock session reads and writes (store.DB). Ratings also reach the study
// schedule through study.Store.
type Store interface {
	study.Store
	CardStates(ctx context.Context, userID int64) (srs.States, error)
	CreateMockSession(ctx context.Context, userID int64, st store.MockSettings, qs []store.MockQuestion, now time.Time) (*store.MockSession, error)
	MockSession(ctx context.Context, userID, id int64, now time.Time) (*store.MockSession, error)
	MarkMockShown(ctx context.Context, sessionID int64, pos int, now time.Time) error
	SubmitMockAnswer(ctx context.Context, sessionID int64, pos int, sub store.MockSubmission) error
	SaveMockChecklist(ctx context.Context, sessionID int64, pos int, covered, pitfalls []int) error
	MarkFollowUpShown(ctx context.Context, sessionID int64, pos int, now time.Time) error
	SubmitFollowUp(ctx context.Context, sessionID int64, pos int, at time.Time, used time.Duration, typed string) error
	ClaimMockRating(ctx context.Context, sessionID int64, pos, rating int, now time.Time) error
	SetMockReviewLog(ctx context.Context, sessionID int64, pos int, logID int64) error
	FinishMockSession(ctx context.Context, sessionID int64, status string, now time.Time) error
}

// Start picks the questions for st from d and stores a new session for the user. An unseeded
// session gets a random seed and asks the user's weakest cards first; interview.ErrNoCards
// when no card matches.
func Start(ctx context.Context, db Store, d *deck.Deck, userID int64, sched srs.Scheduler, st store.MockSettings, now time.Time) (*store.MockSession, error) {
	var states srs.States
	if !st.Seeded {
		st.Seed = rand.Uint64() >> 1 // keep it positive when stored as a signed integer
		var err error
		if states, err = db.CardStates(ctx, userID); err != nil {
			return nil, err
		}
	}
	var topics []string
	for _, slug := range st.Topics {
		if t, ok := d.TopicBySlug(slug); ok {
			topics = append(topics, t.Name)
		}
	}
	cards, err := interview.Select(d.Cards, states, now, interview.Options{N: st.N, Topics: topics, Tags: st.Tags,
		Seeded: st.Seeded, Seed: st.Seed, Scheduler: sched})
	if err != nil {
		return nil, err
	}
	qs := make([]store.MockQuestion, len(cards))
	for i, c := range cards {
		qs[i] = Question(c, st)
	}
	return db.CreateMockSession(ctx, userID, st, qs, now)
}

// Question fixes a question's clocks and follow-up when the session starts: the depth's target
// unless the session set a timer, and a follow-up chosen by the seed.
func Question(c *deck.Card, st store.MockSettings) store.MockQuestion {
	q := store.MockQuestion{CardID: c.ID, Target: st.Target, FollowUpIndex: -1}
	if q.Target == 0 {
		q.Target = interview.Target(c, st.Depth)
	}
	if st.FollowUps {
		q.FollowUpIndex = interview.FollowUpIndex(st.Seed, c.ID, len(c.FollowUps))
		q.FollowUpTarget = interview.FollowUpTarget(c, st.Target)
	}
	return q
}

// Turn is a session and its current question, loaded for one request.
type Turn struct {
	Session *store.MockSession
	Pos     int
	Answer  store.MockTurn
	Card    *deck.Card
}

// Step is what the current question needs next.
type Step int

const (
	Asking         Step = iota // shown (or about to be), not answered
	Reviewing                  // answered: the checklist, then the rating or the follow-up
	FollowingUp                // the follow-up is asked
	FollowUpAnswer             // the follow-up is answered: the rating
)

// Step says where the current question is.
func (t *Turn) Step() Step {
	a := t.Answer
	switch {
	case a.AnsweredAt.IsZero():
		return Asking
	case !a.Checked || !t.HasFollowUp():
		return Reviewing
	case a.FollowUpAnsweredAt.IsZero():
		return FollowingUp
	}
	return FollowUpAnswer
}

// Strict reports a strict clock.
func (t *Turn) Strict() bool { return t.Session.Settings.Clock == "strict" }

// Clock is the session's clock rules.
func (t *Turn) Clock() interview.Clock { return interview.Clock{Strict: t.Strict()} }

// HasFollowUp reports whether this question gets a follow-up (the card may have lost it since).
func (t *Turn) HasFollowUp() bool {
	return t.Answer.FollowUpIndex >= 0 && t.Answer.FollowUpIndex < len(t.Card.FollowUps)
}

// Errors Load returns for a session with nothing to ask.
var (
	ErrOver     = errors.New("mockrun: the session is over")
	ErrCardGone = errors.New("mockrun: the question's card is no longer in the deck")
)

// Load loads the user's session id and its current question. A session with no current
// question is ErrOver: one left open with every question rated (a crash in between) is closed
// here, and one abandoned by going stale is stored as abandoned.
func Load(ctx context.Context, db Store, d *deck.Deck, userID, id int64, now time.Time) (*Turn, error) {
	sess, err := db.MockSession(ctx, userID, id, now)
	if err != nil {
		return nil, err
	}
	pos := sess.Current()
	if sess.Status == store.MockActive && pos < 0 {
		if err := db.FinishMockSession(ctx, sess.ID, store.MockFinished, now); err != nil {
			return nil, err
		}
		sess.Status = store.MockFinished
	}
	if sess.Status != store.MockActive {
		if sess.Status == store.MockAbandoned { // stale: make it stick
			db.FinishMockSession(ctx, sess.ID, store.MockAbandoned, now)
		}
		return nil, ErrOver
	}
	a := sess.Answers[pos]
	c, ok := d.Card(a.CardID)
	if !ok {
		return nil, ErrCardGone
	}
	return &Turn{Session: sess, Pos: pos, Answer: a, Card: c}, nil
}
