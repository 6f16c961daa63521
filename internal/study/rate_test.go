package study_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
	"github.com/rehearse/rehearse/internal/study"
)

// Rate against the real SQLite store: the state is read inside the write, a stale answer
// writes nothing, and a mock rating (no check) goes through.
func TestRateOnSQLite(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
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

// racingStore is the real store, but another answer to the same card is stored between
// Rate's read of the state and its write, as a second tab's can be.
type racingStore struct {
	*store.DB
	race func()
}

func (s racingStore) CardState(ctx context.Context, userID int64, cardID string) (srs.Card, bool, error) {
	c, ok, err := s.DB.CardState(ctx, userID, cardID)
	s.race()
	return c, ok, err
}

// The store's write is a compare-and-set on the answer count: an answer scheduled from a state
// that another answer replaced meanwhile changes nothing and is ErrStale, for a card never
// answered (the row appeared) and for one answered before (its count moved on).
func TestRateRefusedWhenTheStateMovedOnBeforeTheWrite(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	u, err := db.CreateUser(ctx, "ada", "h", store.RoleMember, t0)
	if err != nil {
		t.Fatal(err)
	}
	sc := srs.DefaultScheduler()
	for round := range 2 { // first on a card never answered, then on one answered once
		at := t0.Add(time.Duration(round) * 24 * time.Hour)
		other := study.Answer{UserID: u.ID, CardID: "c1", Rating: srs.Easy, At: at, Mode: study.ModeStudy, ShownReps: -1}
		racing := racingStore{db, func() {
			if _, err := study.Rate(ctx, db, sc, other); err != nil {
				t.Fatal(err)
			}
		}}
		a := study.Answer{UserID: u.ID, CardID: "c1", Rating: srs.Again, At: at, Mode: study.ModeStudy, ShownReps: round}
		if _, err := study.Rate(ctx, racing, sc, a); !errors.Is(err, study.ErrStale) {
			t.Fatalf("round %d: an answer over a state replaced meanwhile: %v, want ErrStale", round, err)
		}
		hist, _ := db.ReviewHistory(ctx, u.ID, "c1")
		st, _, _ := db.CardState(ctx, u.ID, "c1")
		if len(hist) != round+1 || hist[round].Rating != srs.Easy || st.Reps != round+1 {
			t.Fatalf("round %d: %d answers logged, reps %d: the refused answer wrote something", round, len(hist), st.Reps)
		}
	}
}
