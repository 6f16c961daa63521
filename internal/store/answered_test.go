package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/study"
)

// A committed answer leaves the user's loaded card states in the cache with the card's new
// state, equal to what the database now holds; an answer that fails drops them.
func TestAnswerKeepsCachedStatesAsStored(t *testing.T) {
	db := openTest(t)
	uid := studyUser(t, db)
	ctx := context.Background()
	seedStates(t, db, uid, 50)
	if _, err := db.CardStates(ctx, uid); err != nil {
		t.Fatal(err)
	}
	at := t0.Add(90*time.Minute + 123456789*time.Nanosecond) // not whole milliseconds: the log keeps them
	steps := []struct {
		card  string
		reps  int // the reps the answer was shown at; a wrong one makes it stale
		mode  string
		stale bool
	}{
		{"gen-0003", 4, ModeStudy, false}, // a stored card (seedStates: reps 1 + i%9)
		{"new-card", 0, ModeStudy, false}, // a card never answered
		{"new-card", 1, ModeMock, false},  // the same again, in a mock interview
		{"gen-0003", 4, ModeStudy, true},  // a second tab's answer: stale, nothing written
		{"gen-0010", 2, ModeStudy, false}, // after the drop, a load and then an answer again
	}
	for i, s := range steps {
		if _, err := db.CardStates(ctx, uid); err != nil { // loaded (again, after a drop)
			t.Fatal(err)
		}
		j := job(ctx, uid, s.card, s.reps, at.Add(time.Duration(i)*time.Hour))
		j.a.Mode = s.mode
		_, err := db.ApplyReview(ctx, uid, j.cardID, j.a, j.next)
		if s.stale != errors.Is(err, study.ErrStale) || (!s.stale && err != nil) {
			t.Fatalf("step %d (%s): err %v, stale %v", i, s.card, err, s.stale)
		}
		got, kept, _ := db.progress.cachedStates(uid)
		if kept == s.stale {
			t.Fatalf("step %d (%s): states kept %v after an answer that was stale %v", i, s.card, kept, s.stale)
		}
		if !kept {
			continue
		}
		want, err := db.loadCardStates(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		if got.Len() != want.Len() {
			t.Fatalf("step %d: %d states kept, %d stored", i, got.Len(), want.Len())
		}
		for id, w := range want.All() {
			if g, ok := got.Get(id); !ok || g != w {
				t.Fatalf("step %d, card %s: kept %+v, stored %+v", i, id, g, w)
			}
		}
	}
}
