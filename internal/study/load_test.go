package study_test

import (
	"context"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
	"github.com/rehearse/rehearse/internal/study"
)

// LoadQueue builds the queue from what the store holds: a card answered today counts against
// the new-card limit, a suspended card stays out, and the limit comes from the states read.
func TestLoadQueueFromTheStore(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	u, err := db.CreateUser(ctx, "kim", "h", store.RoleMember, now)
	if err != nil {
		t.Fatal(err)
	}
	cards := []*deck.Card{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}
	sched := srs.DefaultScheduler()
	if _, err := study.Rate(ctx, db, sched, study.Answer{UserID: u.ID, CardID: "a", Rating: srs.Good,
		At: now.Add(-time.Hour), Mode: study.ModeStudy, ShownReps: -1}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetSuspended(ctx, u.ID, "b", true, now); err != nil {
		t.Fatal(err)
	}
	var seen int
	p, err := study.LoadQueue(ctx, db, u.ID, cards, now, time.UTC, func(s srs.States) int { seen = s.Len(); return 2 })
	if err != nil {
		t.Fatal(err)
	}
	if seen != 1 || p.NewToday != 1 || !p.Suspended["b"] {
		t.Fatalf("read %d states, %d new today, suspended %v", seen, p.NewToday, p.Suspended)
	}
	if len(p.New) != 1 || p.New[0].ID != "c" { // limit 2, one used by a today
		t.Fatalf("new cards %v, want [c]", p.New)
	}
	if st, ok := p.States.Get("a"); !ok || st.State == srs.New || st.Due.IsZero() {
		t.Fatalf("a's state %+v", st)
	}
}
