package study_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
)

// Rate against the real SQLite store: the state is read inside the write, a stale answer
// writes nothing, and a mock rating (no check) goes through.
func TestRateOnSQLite(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "r.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	u, err := db.CreateUser(ctx, "ada", "h", store.RoleMember, t0)
	if err != nil {
		t.Fatal(err)
	}
	sc := srs.DefaultScheduler()
	a := study.Answer{UserID: u.ID, CardID: "c1", Rating: srs.Good, At: t0, Took: 3 * time.Second, Mode: study.ModeStudy}
	first, err := study.Rate(ctx, db, sc, a)
	if err != nil {
		t.Fatal(err)
	}
	if first.Before.Reps != 0 || first.After.Reps != 1 || first.LogID == 0 {
		t.Fatalf("first answer: %+v", first)
	}
	if _, err := study.Rate(ctx, db, sc, a); !errors.Is(err, study.ErrStale) {
		t.Fatalf("same form again: %v, want ErrStale", err)
	}
	hist, _ := db.ReviewHistory(ctx, u.ID, "c1")
	if len(hist) != 1 || hist[0].DurationMS != 3000 {
		t.Fatalf("history after a stale answer: %+v", hist)
	}
	a.Mode, a.ShownReps, a.At, a.Took = study.ModeMock, -1, t0.Add(time.Hour), 5*time.Hour
	second, err := study.Rate(ctx, db, sc, a)
	if err != nil || second.Before != first.After {
		t.Fatalf("mock rating: %v, before %+v want %+v", err, second.Before, first.After)
	}
	hist, _ = db.ReviewHistory(ctx, u.ID, "c1")
	if len(hist) != 2 || hist[1].DurationMS != study.MaxAnswerTime.Milliseconds() || hist[1].Mode != study.ModeMock {
		t.Fatalf("mock answer logged as %+v", hist[1])
	}
	if _, err := study.Rate(ctx, db, sc, study.Answer{UserID: u.ID, CardID: "c1", Rating: 7, Mode: study.ModeStudy}); err == nil {
		t.Fatal("rating 7 accepted")
	}
}
