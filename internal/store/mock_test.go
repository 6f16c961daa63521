package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func newMock(t *testing.T, db *DB, userID int64, at time.Time) *MockSession {
	t.Helper()
	st := MockSettings{Seed: 1<<63 + 5, Seeded: true, Topics: []string{"eager", "static"}, N: 2, Depth: "solid",
		FollowUps: true, Clock: "strict", Target: 3 * time.Second, RecordReviews: true}
	qs := []MockQuestion{
		{CardID: "a", Target: 3 * time.Second, FollowUpIndex: 1, FollowUpTarget: 1500 * time.Millisecond},
		{CardID: "b", Target: 3 * time.Second, FollowUpIndex: -1},
	}
	s, err := db.CreateMockSession(context.Background(), userID, st, qs, at)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestMockSessionLifecycle(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ada", "h", RoleMember, t0)
	s := newMock(t, db, u.ID, t0)
	if s.Status != MockActive || len(s.Answers) != 2 || s.Current() != 0 {
		t.Fatalf("new session %+v", s)
	}
	if s.Settings.Seed != 1<<63+5 || !slices.Equal(s.Settings.Topics, []string{"eager", "static"}) ||
		s.Settings.Target != 3*time.Second || !s.Settings.FollowUps || s.Settings.Clock != "strict" {
		t.Fatalf("settings did not round-trip: %+v", s.Settings)
	}
	if a := s.Answers[0]; a.CardID != "a" || a.FollowUpIndex != 1 || a.FollowUpTarget != 1500*time.Millisecond || !a.ShownAt.IsZero() {
		t.Fatalf("first answer %+v", a)
	}

	// Answering before the question was shown is refused; showing twice keeps the first stamp.
	sub := MockSubmission{At: t0.Add(5 * time.Second), Used: 2 * time.Second, Typed: "revoke all", Covered: []int{0}}
	if err := db.SubmitMockAnswer(ctx, s.ID, 0, sub); !errors.Is(err, ErrStale) {
		t.Fatalf("answer before shown: %v", err)
	}
	db.MarkMockShown(ctx, s.ID, 0, t0.Add(3*time.Second))
	db.MarkMockShown(ctx, s.ID, 0, t0.Add(9*time.Second))
	if err := db.SubmitMockAnswer(ctx, s.ID, 0, sub); err != nil {
		t.Fatal(err)
	}
	if err := db.SubmitMockAnswer(ctx, s.ID, 0, sub); !errors.Is(err, ErrStale) {
		t.Fatalf("double submit: %v", err)
	}
	if err := db.SaveMockChecklist(ctx, s.ID, 0, []int{0, 1}, []int{2}); err != nil {
		t.Fatal(err)
	}
	db.MarkFollowUpShown(ctx, s.ID, 0, t0.Add(10*time.Second))
	if err := db.SubmitFollowUp(ctx, s.ID, 0, t0.Add(11*time.Second), time.Second, "cooperative"); err != nil {
		t.Fatal(err)
	}
	if err := db.ClaimMockRating(ctx, s.ID, 0, 3, t0.Add(12*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := db.ClaimMockRating(ctx, s.ID, 0, 4, t0.Add(12*time.Second)); !errors.Is(err, ErrStale) {
		t.Fatalf("second rating: %v", err)
	}
	if err := db.ClaimMockRating(ctx, s.ID, 1, 9, t0); err == nil {
		t.Fatal("rating 9 accepted")
	}
	if err := db.SetMockReviewLog(ctx, s.ID, 0, 77); err != nil {
		t.Fatal(err)
	}

	got, err := db.MockSession(ctx, u.ID, s.ID, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	a := got.Answers[0]
	if !a.ShownAt.Equal(t0.Add(3*time.Second)) || a.Used != 2*time.Second || a.Typed != "revoke all" ||
		!slices.Equal(a.Covered, []int{0, 1}) || !slices.Equal(a.PitfallsHit, []int{2}) || !a.Checked ||
		a.FollowUpTyped != "cooperative" || a.FollowUpUsed != time.Second || a.Rating != 3 || a.ReviewLogID != 77 {
		t.Fatalf("answer after the steps: %+v", a)
	}
	if got.Current() != 1 {
		t.Fatalf("current = %d, want 1", got.Current())
	}
	if _, err := db.MockSession(ctx, u.ID+1, s.ID, t0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("another user's session: %v", err)
	}

	if err := db.FinishMockSession(ctx, s.ID, MockFinished, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	// A finished session takes no more answers.
	db.MarkMockShown(ctx, s.ID, 1, t0.Add(time.Hour))
	if err := db.SubmitMockAnswer(ctx, s.ID, 1, sub); !errors.Is(err, ErrStale) {
		t.Fatalf("answer in a finished session: %v", err)
	}
}

func TestMockHistoryAndAbandon(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ada", "h", RoleMember, t0)
	other, _ := db.CreateUser(ctx, "bob", "h", RoleMember, t0)
	first := newMock(t, db, u.ID, t0)
	bobs := newMock(t, db, other.ID, t0)
	second := newMock(t, db, u.ID, t0.Add(time.Hour)) // starting a new one abandons the first

	h, err := db.MockHistory(ctx, u.ID, 10, t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].ID != second.ID || h[1].ID != first.ID {
		t.Fatalf("history order: %v", h)
	}
	if h[0].Status != MockActive || h[1].Status != MockAbandoned || len(h[1].Answers) != 2 {
		t.Fatalf("statuses %s %s", h[0].Status, h[1].Status)
	}
	b, _ := db.MockSession(ctx, other.ID, bobs.ID, t0.Add(2*time.Hour))
	if b.Status != MockActive {
		t.Fatal("another user's session was abandoned")
	}
	// Over a day later, an untouched active session reads as abandoned.
	late, _ := db.MockSession(ctx, u.ID, second.ID, t0.Add(26*time.Hour))
	if late.Status != MockAbandoned {
		t.Fatalf("stale session status %s", late.Status)
	}
}
