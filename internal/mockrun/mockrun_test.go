package mockrun

import (
	"context"
	"errors"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
)

const card = `---
id: static
question: What does static membership change about a consumer restart?
topic: Test topic
tags: [kafka]
timing: {basics: 20s, solid: 40s}
---

## Answer

- A restarted member with the same group.instance.id gets its partitions back without a rebalance
- The coordinator waits up to session.timeout.ms before declaring it gone

## Basics

The member keeps its identity, so a quick restart does not trigger a rebalance.

## Solid answer

With group.instance.id set, the coordinator holds the member's assignment until the session times out.

## Go deeper

1. Knows the phrase static membership.
2. Names group.instance.id.
3. Explains the session timeout trade-off.
4. Relates it to rolling restarts.

## Explanation

Static members skip the JoinGroup round on restart.

## Follow-ups

### What is the downside?

A member that really died is noticed only after the session timeout.

## Pitfalls

- Saying static membership removes every rebalance: scaling still rebalances.
`

// setup opens a real store and a one-card deck, with one user.
func setup(t *testing.T) (*store.DB, *deck.Deck, int64) {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t)
	d, err := deck.Load(fstest.MapFS{"kafka/static.md": {Data: []byte(card)}}, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := db.CreateUser(ctx, "ann", "x", store.RoleMember, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return db, d, u.ID
}

var t0 = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)

func load(t *testing.T, db Store, d *deck.Deck, user, id int64, now time.Time) *Turn {
	t.Helper()
	turn, err := Load(context.Background(), db, d, user, id, now)
	if err != nil {
		t.Fatal(err)
	}
	return turn
}

// A strict clock runs out on the server: the next look stores an empty answer that took the
// whole target, the follow-up gets half the basics target, and the last rating closes the
// session and reaches the study schedule.
func TestStrictSessionEndToEnd(t *testing.T) {
	ctx := context.Background()
	db, d, user := setup(t)
	st := store.MockSettings{N: 1, Depth: "basics", Clock: "strict", FollowUps: true, RecordReviews: true, Seeded: true, Seed: 7}
	sess, err := Start(ctx, db, d, user, srs.DefaultScheduler(), st, t0)
	if err != nil {
		t.Fatal(err)
	}
	turn := load(t, db, d, user, sess.ID, t0)
	if turn.Step() != Asking || turn.Answer.Target != 20*time.Second || turn.Answer.FollowUpTarget != 10*time.Second {
		t.Fatalf("first turn: step %d, %+v", turn.Step(), turn.Answer.MockQuestion)
	}
	if shown, err := Show(ctx, db, turn, t0); err != nil || !shown.Equal(t0) {
		t.Fatalf("show: %v %v", shown, err)
	}
	later := t0.Add(25 * time.Second)
	if _, err := Show(ctx, db, load(t, db, d, user, sess.ID, later), later); !errors.Is(err, ErrRanOut) {
		t.Fatalf("after the target: %v, want ErrRanOut", err)
	}
	turn = load(t, db, d, user, sess.ID, later)
	if turn.Step() != Reviewing || !turn.Answer.Expired || turn.Answer.Used != 20*time.Second || turn.Answer.Typed != "" {
		t.Fatalf("ran out: step %d, %+v", turn.Step(), turn.Answer)
	}
	// Typing after the run-out changes nothing.
	if err := Answer(ctx, db, turn, "late text", later); err != nil {
		t.Fatal(err)
	}
	var ce *ChecklistError
	if err := Check(ctx, db, turn, Checklist{Covered: []string{"5"}}); !errors.As(err, &ce) || ce.Item != "5" {
		t.Fatalf("a point the card lacks: %v", err)
	}
	if err := Check(ctx, db, turn, Checklist{Covered: []string{"1", "1"}}); err != nil {
		t.Fatal(err)
	}
	turn = load(t, db, d, user, sess.ID, later)
	if len(turn.Answer.Covered) != 1 || turn.Answer.Covered[0] != 1 || turn.Step() != FollowingUp {
		t.Fatalf("after the checklist: step %d, covered %v", turn.Step(), turn.Answer.Covered)
	}
	if r, err := Rate(ctx, db, turn, srs.DefaultScheduler(), srs.Good, nil, later); err != nil || r.Stored {
		t.Fatalf("rating before the follow-up: %+v %v", r, err)
	}
	if _, err := Show(ctx, db, turn, later); err != nil {
		t.Fatal(err)
	}
	turn = load(t, db, d, user, sess.ID, later)
	if err := FollowUp(ctx, db, turn, "  it is noticed late  ", later.Add(4*time.Second)); err != nil {
		t.Fatal(err)
	}
	turn = load(t, db, d, user, sess.ID, later)
	if turn.Step() != FollowUpAnswer || turn.Answer.FollowUpTyped != "it is noticed late" || turn.Answer.FollowUpUsed != 4*time.Second {
		t.Fatalf("follow-up: step %d, %+v", turn.Step(), turn.Answer)
	}
	r, err := Rate(ctx, db, turn, srs.DefaultScheduler(), srs.Good, nil, later)
	if err != nil || !r.Stored || !r.Reviewed || !r.Finished || r.Unlogged != nil {
		t.Fatalf("last rating: %+v %v", r, err)
	}
	if _, err := Load(ctx, db, d, user, sess.ID, later); !errors.Is(err, ErrOver) {
		t.Fatalf("finished session: %v, want ErrOver", err)
	}
	if _, ok, err := db.CardState(ctx, user, "static"); err != nil || !ok {
		t.Fatalf("the review did not reach the schedule: %v %v", ok, err)
	}
}

// A soft clock keeps the typed answer whenever it comes, ticks what the heuristic finds and
// caps the text.
func TestSoftAnswerTicksAndCaps(t *testing.T) {
	ctx := context.Background()
	db, d, user := setup(t)
	sess, err := Start(ctx, db, d, user, srs.DefaultScheduler(), store.MockSettings{N: 1, Depth: "basics", Clock: "soft"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	turn := load(t, db, d, user, sess.ID, t0)
	if _, err := Show(ctx, db, turn, t0); err != nil {
		t.Fatal(err)
	}
	late := t0.Add(time.Hour)
	if _, err := Show(ctx, db, load(t, db, d, user, sess.ID, late), late); err != nil {
		t.Fatalf("a soft clock never runs out: %v", err)
	}
	turn = load(t, db, d, user, sess.ID, late)
	said := "The coordinator waits up to session.timeout.ms before declaring the member gone. "
	for len([]rune(said)) <= MaxTyped {
		said += "More. "
	}
	if err := Answer(ctx, db, turn, said, late); err != nil {
		t.Fatal(err)
	}
	turn = load(t, db, d, user, sess.ID, late)
	if turn.Answer.Used != time.Hour || turn.Answer.Expired || len([]rune(turn.Answer.Typed)) != MaxTyped {
		t.Fatalf("answer: used %v expired %v, %d characters", turn.Answer.Used, turn.Answer.Expired, len([]rune(turn.Answer.Typed)))
	}
	if len(turn.Answer.Covered) != 1 || turn.Answer.Covered[0] != 1 {
		t.Fatalf("the heuristic should tick the second point: %v", turn.Answer.Covered)
	}
	r, err := Rate(ctx, db, turn, srs.DefaultScheduler(), srs.Hard, &Checklist{Covered: []string{"0"}}, late)
	if err != nil || !r.Finished || r.Reviewed {
		t.Fatalf("rating: %+v %v", r, err)
	}
	got, err := db.MockSession(ctx, user, sess.ID, late)
	if err != nil || len(got.Answers[0].Covered) != 1 || got.Answers[0].Covered[0] != 0 {
		t.Fatalf("the checklist posted with the rating was not saved: %+v %v", got, err)
	}
}

func TestQuestionTimer(t *testing.T) {
	c := &deck.Card{ID: "x", Timing: deck.Timing{Basics: 30 * time.Second, Solid: time.Minute}, FollowUps: make([]deck.FollowUp, 2)}
	q := Question(c, store.MockSettings{Depth: "solid"})
	if q.Target != time.Minute || q.FollowUpIndex != -1 {
		t.Fatalf("solid without follow-ups: %+v", q)
	}
	q = Question(c, store.MockSettings{Depth: "solid", Target: 50 * time.Second, FollowUps: true, Seed: 3})
	if q.Target != 50*time.Second || q.FollowUpTarget != 25*time.Second || q.FollowUpIndex < 0 || q.FollowUpIndex > 1 {
		t.Fatalf("timer with follow-ups: %+v", q)
	}
}

// A strict follow-up runs out on the server too: an empty follow-up answer that took its whole
// (half-basics) target.
func TestStrictFollowUpRunsOut(t *testing.T) {
	ctx := context.Background()
	db, d, user := setup(t)
	st := store.MockSettings{N: 1, Depth: "basics", Clock: "strict", FollowUps: true, Seeded: true, Seed: 1}
	sess, err := Start(ctx, db, d, user, srs.DefaultScheduler(), st, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Show(ctx, db, load(t, db, d, user, sess.ID, t0), t0); err != nil {
		t.Fatal(err)
	}
	at := t0.Add(5 * time.Second)
	if err := Answer(ctx, db, load(t, db, d, user, sess.ID, at), "static membership", at); err != nil {
		t.Fatal(err)
	}
	if err := Check(ctx, db, load(t, db, d, user, sess.ID, at), Checklist{}); err != nil {
		t.Fatal(err)
	}
	if shown, err := Show(ctx, db, load(t, db, d, user, sess.ID, at), at); err != nil || !shown.Equal(at) {
		t.Fatalf("follow-up shown: %v %v", shown, err)
	}
	out := at.Add(11 * time.Second)
	if _, err := Show(ctx, db, load(t, db, d, user, sess.ID, out), out); !errors.Is(err, ErrRanOut) {
		t.Fatalf("follow-up past its target: %v", err)
	}
	turn := load(t, db, d, user, sess.ID, out)
	if turn.Step() != FollowUpAnswer || turn.Answer.FollowUpUsed != 10*time.Second || turn.Answer.FollowUpTyped != "" {
		t.Fatalf("after the run-out: step %d, %+v", turn.Step(), turn.Answer)
	}
}
