package store

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// progressView is everything the progress cache serves for a user, read either through it or
// straight from SQL.
type progressView struct {
	States  map[string]srs.Card
	Cards   map[string]CardProgress
	New     int
	Last    Review
	LastErr error
}

var viewCards = []string{"c1", "c2", "never"}

func cachedView(t *testing.T, db *DB, uid int64, since time.Time) progressView {
	t.Helper()
	ctx := context.Background()
	v := progressView{Cards: map[string]CardProgress{}}
	var err error
	st, err := db.CardStates(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	v.States = maps.Collect(st.All())
	for _, c := range viewCards {
		if v.Cards[c], err = db.CardProgress(ctx, uid, c); err != nil {
			t.Fatal(err)
		}
	}
	if v.New, err = db.NewIntroducedSince(ctx, uid, since); err != nil {
		t.Fatal(err)
	}
	v.Last, v.LastErr = db.LastStudyReview(ctx, uid)
	return v
}

func sqlView(t *testing.T, db *DB, uid int64, since time.Time) progressView {
	t.Helper()
	ctx := context.Background()
	v := progressView{Cards: map[string]CardProgress{}}
	var err error
	st, err := db.loadCardStates(ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	v.States = maps.Collect(st.All())
	for _, c := range viewCards {
		if v.Cards[c], err = db.loadCardProgress(ctx, uid, c); err != nil {
			t.Fatal(err)
		}
	}
	if v.New, err = db.loadNewIntroducedSince(ctx, uid, since); err != nil {
		t.Fatal(err)
	}
	v.Last, v.LastErr = scanReview(db.queryRow(ctx, lastStudyReviewSQL, uid))
	return v
}

// Every write of a user's answers or recordings is seen by the very next read, though the reads
// before it were served from memory: each step reads everything first (filling the cache), writes
// through one path, then compares what the cache serves with what SQL holds.
func TestProgressCacheNeverServesAStaleRead(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	other, _ := db.CreateUser(ctx, "other", "h", RoleMember, t0)
	since := t0.Add(-time.Hour)
	var rec int64
	steps := []struct {
		name  string
		write func()
	}{
		{"study answer on a new card", func() { answer(t, db, uid, "c1", srs.Good, t0, ModeStudy) }},
		{"second answer", func() { answer(t, db, uid, "c1", srs.Again, t0.Add(time.Minute), ModeStudy) }},
		{"mock answer", func() { answer(t, db, uid, "c2", srs.Hard, t0.Add(2*time.Minute), ModeMock) }},
		{"undo", func() {
			if _, err := db.UndoLast(ctx, uid, t0.Add(3*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}},
		{"add recording", func() {
			var err error
			rec, err = db.AddRecording(ctx, Recording{UserID: uid, CardID: "c1", CreatedAt: t0, Mode: ModeStudy,
				MIME: "audio/webm", TranscriptStatus: "pending"}, []byte{1})
			if err != nil {
				t.Fatal(err)
			}
		}},
		{"attach recording", func() {
			if err := db.AttachRecording(ctx, uid, rec, 1); err != nil {
				t.Fatal(err)
			}
		}},
		{"transcript", func() {
			if err := db.SetTranscript(ctx, rec, "done", "the leader assigns"); err != nil {
				t.Fatal(err)
			}
		}},
		{"retention", func() {
			for range 2 {
				if _, err := db.AddRecording(ctx, Recording{UserID: uid, CardID: "c1", CreatedAt: t0, Mode: ModeStudy,
					MIME: "audio/webm"}, []byte{2}); err != nil {
					t.Fatal(err)
				}
			}
			if err := db.SetRecordingsKeep(ctx, uid, 1); err != nil {
				t.Fatal(err)
			}
		}},
		{"delete recording", func() {
			recs, _ := db.CardRecordings(ctx, uid, "c1")
			if err := db.DeleteRecording(ctx, uid, recs[0].ID); err != nil {
				t.Fatal(err)
			}
		}},
		{"undo the first answer", func() {
			if _, err := db.UndoLast(ctx, uid, t0.Add(4*time.Minute)); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, s := range steps {
		before := cachedView(t, db, uid, since)
		cachedView(t, db, other.ID, since)
		s.write()
		answer(t, db, other.ID, "c1", srs.Good, t0, ModeStudy) // another user's writes change nothing here
		got, want := cachedView(t, db, uid, since), sqlView(t, db, uid, since)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s:\n got %+v\nwant %+v", s.name, got, want)
		}
		if reflect.DeepEqual(before, want) && s.name != "attach recording" {
			t.Fatalf("%s changed nothing the pages read: the step tests nothing", s.name)
		}
	}
}

// The reads really are served from memory: a row changed behind the store's back (as no code
// path does) goes unseen until the user's next write through the store.
func TestProgressCacheServesFromMemory(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	answer(t, db, uid, "c1", srs.Good, t0, ModeStudy)
	cachedView(t, db, uid, t0)
	if _, err := db.w.ExecContext(ctx, `UPDATE card_states SET reps = 99 WHERE user_id = ?`, uid); err != nil {
		t.Fatal(err)
	}
	if st, _ := db.CardStates(ctx, uid); reps(st, "c1") != 1 {
		t.Fatalf("reps %d: the states were read again", reps(st, "c1"))
	}
	if p, _ := db.CardProgress(ctx, uid, "c1"); p.State.Reps != 1 {
		t.Fatalf("reps %d: the card progress was read again", p.State.Reps)
	}
	if _, err := db.w.ExecContext(ctx, `UPDATE card_states SET reps = 1 WHERE user_id = ?`, uid); err != nil {
		t.Fatal(err)
	}
	answer(t, db, uid, "c1", srs.Good, t0.Add(time.Hour), ModeStudy)
	if st, _ := db.CardStates(ctx, uid); reps(st, "c1") != 2 {
		t.Fatalf("reps %d after a write, want 2", reps(st, "c1"))
	}
}

func reps(st srs.States, id string) int {
	c, _ := st.Get(id)
	return c.Reps
}

// A read that loaded its rows before a write committed is not kept once the write has dropped
// the entry; nor after the cache started again.
func TestProgressCacheDropsARacingRead(t *testing.T) {
	var c progressCache
	_, _, tk := c.cachedStates(1)
	c.drop(1)
	c.putStates(1, tk, srs.StatesOf(map[string]srs.Card{"old": {}}))
	if _, ok, _ := c.cachedStates(1); ok {
		t.Fatal("a read older than a write was kept")
	}
	_, _, tk = c.cachedStates(1)
	c.putStates(1, tk, srs.StatesOf(map[string]srs.Card{"new": {}}))
	if _, ok, _ := c.cachedStates(1); !ok {
		t.Fatal("a read with nothing in between was not kept")
	}
	_, _, tk = c.cachedStates(2)
	c.epoch++ // what a full cache does
	c.putStates(2, tk, srs.States{})
	if _, ok, _ := c.cachedStates(2); ok {
		t.Fatal("a read from before the cache started again was kept")
	}
}

// A full cache forgets other users, not everyone, and not the user whose rows are coming in;
// a read that began before the forgetting is not kept.
func TestProgressCacheFullForgetsOthers(t *testing.T) {
	var c progressCache
	states := func(n int) srs.States {
		var b srs.StatesBuilder
		for i := range n {
			b.Add(fmt.Sprint(i), srs.Card{})
		}
		return b.States()
	}
	per := progressWeightMax / 4
	for id := int64(1); id <= 4; id++ { // exactly full
		_, _, tk := c.cachedStates(id)
		c.putStates(id, tk, states(per))
	}
	_, _, early := c.cachedStates(6) // a read in flight while the cache fills
	_, _, tk := c.cachedStates(5)
	c.putStates(5, tk, states(per))
	kept := 0
	for id := int64(1); id <= 5; id++ {
		if _, ok, _ := c.cachedStates(id); ok {
			kept++
		}
	}
	if _, ok, _ := c.cachedStates(5); !ok || kept != 4 || c.weight != progressWeightMax {
		t.Fatalf("after one user too many: newcomer kept %v, %d of 5 users kept, weight %d", ok, kept, c.weight)
	}
	c.putStates(6, early, states(1))
	if _, ok, _ := c.cachedStates(6); ok {
		t.Fatal("a read from before other users were forgotten was kept")
	}
}
