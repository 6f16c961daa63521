package store

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// CardProgress returns exactly what the three separate reads return: for a card never seen,
// one with answers (an undone one left out), and one with recordings too.
func TestCardProgressMatchesTheSeparateReads(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	other, _ := db.CreateUser(ctx, "other", "h", RoleMember, t0)
	answer(t, db, uid, "c1", srs.Good, t0, ModeStudy)
	answer(t, db, uid, "c1", srs.Again, t0.Add(time.Hour), ModeMock)
	answer(t, db, uid, "c1", srs.Easy, t0.Add(2*time.Hour), ModeStudy)
	if _, err := db.UndoLast(ctx, uid, t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	answer(t, db, uid, "c2", srs.Hard, t0, ModeStudy)
	answer(t, db, other.ID, "c1", srs.Good, t0, ModeStudy) // someone else's work on the card
	for i, u := range []int64{uid, uid, other.ID} {
		if _, err := db.AddRecording(ctx, Recording{UserID: u, CardID: "c1", CreatedAt: t0.Add(time.Duration(i) * time.Minute),
			Mode: ModeStudy, MIME: "audio/webm", Spoken: 30 * time.Second, Wall: 41 * time.Second, Target: 40 * time.Second,
			FollowUp: i == 1}, []byte{1, 2, byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, card := range []string{"c1", "c2", "never"} {
		got, err := db.CardProgress(ctx, uid, card)
		if err != nil {
			t.Fatal(err)
		}
		var want CardProgress
		if want.State, want.Studied, err = db.CardState(ctx, uid, card); err != nil {
			t.Fatal(err)
		}
		if want.History, err = db.ReviewHistory(ctx, uid, card); err != nil {
			t.Fatal(err)
		}
		if want.Recordings, err = db.CardRecordings(ctx, uid, card); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", card, got, want)
		}
	}
	if p, _ := db.CardProgress(ctx, uid, "c1"); len(p.History) != 2 || len(p.Recordings) != 2 || !p.Studied {
		t.Fatalf("c1: %d answers, %d recordings, studied %v; want 2, 2, true", len(p.History), len(p.Recordings), p.Studied)
	}
}
