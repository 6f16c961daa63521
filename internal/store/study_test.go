package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

func studyUser(t *testing.T, db *DB) int64 {
	t.Helper()
	u, err := db.CreateUser(context.Background(), "sam", "h", RoleMember, t0)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// answer reviews a card from its stored state, as the study handler does.
func answer(t *testing.T, db *DB, uid int64, id string, r srs.Rating, now time.Time, mode string) srs.Card {
	t.Helper()
	ctx := context.Background()
	before, _, err := db.CardState(ctx, uid, id)
	if err != nil {
		t.Fatal(err)
	}
	after := srs.DefaultScheduler().Review(before, r, now)
	if _, err := db.RecordReview(ctx, uid, id, before, after, r, now, 4200, mode); err != nil {
		t.Fatalf("record %s %v: %v", id, r, err)
	}
	return after
}

func TestRecordReviewStoresStateAndLog(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	after := answer(t, db, uid, "c1", srs.Good, t0, ModeStudy)
	got, ok, err := db.CardState(ctx, uid, "c1")
	if err != nil || !ok {
		t.Fatalf("state: %v %v", ok, err)
	}
	if got.State != srs.Learning || got.Step != 1 || got.Reps != 1 || got.Stability != after.Stability ||
		got.Difficulty != after.Difficulty || !got.Due.Equal(t0.Add(10*time.Minute)) || !got.LastReview.Equal(t0) {
		t.Fatalf("stored %+v, want %+v", got, after)
	}
	h, err := db.ReviewHistory(ctx, uid, "c1")
	if err != nil || len(h) != 1 {
		t.Fatalf("history %v %v", h, err)
	}
	v := h[0]
	if v.Rating != srs.Good || v.Before != (srs.Card{}) || v.StateAfter != srs.Learning || v.DurationMS != 4200 ||
		v.Mode != ModeStudy || v.ScheduledDays*24*60 < 9.99 || v.ScheduledDays*24*60 > 10.01 || !v.ReviewedAt.Equal(t0) {
		t.Fatalf("log row %+v", v)
	}
	// A second answer given on the stale state (a double submit) writes nothing.
	if _, err := db.RecordReview(ctx, uid, "c1", srs.Card{}, after, srs.Good, t0, 0, ModeStudy); !errors.Is(err, ErrStale) {
		t.Fatalf("stale answer: %v, want ErrStale", err)
	}
	if h, _ := db.ReviewHistory(ctx, uid, "c1"); len(h) != 1 {
		t.Fatalf("stale answer logged: %d rows", len(h))
	}
	if _, err := db.RecordReview(ctx, uid, "c1", after, after, srs.Good, t0, 0, "exam"); err == nil {
		t.Fatal("unknown mode accepted")
	}
}

func TestRecordReviewIsAtomic(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	answer(t, db, uid, "c1", srs.Good, t0, ModeStudy)
	before, _, _ := db.CardState(ctx, uid, "c1")
	// Make the log insert fail after the state upsert has run in the same transaction.
	if _, err := db.w.Exec(`CREATE TRIGGER fail_log BEFORE INSERT ON review_log BEGIN SELECT RAISE(ABORT, 'disk on fire'); END`); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(10 * time.Minute)
	after := srs.DefaultScheduler().Review(before, srs.Easy, now)
	if _, err := db.RecordReview(ctx, uid, "c1", before, after, srs.Easy, now, 0, ModeStudy); err == nil {
		t.Fatal("record succeeded despite the failing log insert")
	}
	got, _, _ := db.CardState(ctx, uid, "c1")
	if got != before {
		t.Fatalf("state changed without its log row: %+v, want %+v", got, before)
	}
}

func TestUndoRestoresExactly(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	if _, err := db.UndoLast(ctx, uid, t0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("undo with no answers: %v", err)
	}
	// A new card: undo deletes its state, so it is new again.
	answer(t, db, uid, "fresh", srs.Good, t0, ModeStudy)
	if id, err := db.UndoLast(ctx, uid, t0.Add(time.Second)); err != nil || id != "fresh" {
		t.Fatalf("undo: %q %v", id, err)
	}
	if _, ok, _ := db.CardState(ctx, uid, "fresh"); ok {
		t.Fatal("undone new card still has a state")
	}
	if n, _ := db.NewIntroducedSince(ctx, uid, t0); n != 0 {
		t.Fatalf("undone introduction still counted: %d", n)
	}
	// A reviewed card: several answers, then undo the last one.
	now := t0
	for _, r := range []srs.Rating{srs.Good, srs.Good, srs.Good} {
		answer(t, db, uid, "old", r, now, ModeStudy)
		now = now.Add(3 * 24 * time.Hour)
	}
	before, _, _ := db.CardState(ctx, uid, "old")
	answer(t, db, uid, "old", srs.Again, now, ModeStudy)
	if got, _, _ := db.CardState(ctx, uid, "old"); got.Lapses != 1 || got.State != srs.Relearning {
		t.Fatalf("lapse not stored: %+v", got)
	}
	if id, err := db.UndoLast(ctx, uid, now); err != nil || id != "old" {
		t.Fatalf("undo: %q %v", id, err)
	}
	if got, _, _ := db.CardState(ctx, uid, "old"); got != before {
		t.Fatalf("undo restored %+v, want exactly %+v", got, before)
	}
	if h, _ := db.ReviewHistory(ctx, uid, "old"); len(h) != 3 {
		t.Fatalf("history after undo has %d rows, want 3", len(h))
	}
	// Undo walks back one answer at a time.
	if _, err := db.UndoLast(ctx, uid, now); err != nil {
		t.Fatal(err)
	}
	if h, _ := db.ReviewHistory(ctx, uid, "old"); len(h) != 2 {
		t.Fatalf("second undo left %d rows", len(h))
	}
	// Mock answers are not undone from study, and block undoing an older study answer of that card.
	answer(t, db, uid, "old", srs.Good, now, ModeMock)
	if _, err := db.UndoLast(ctx, uid, now); !errors.Is(err, ErrStale) {
		t.Fatalf("undo under a later mock answer: %v, want ErrStale", err)
	}
}

func TestProgressSurvivesCardRemoval(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	answer(t, db, uid, "removed-card", srs.Good, t0, ModeStudy)
	// The store never prunes by deck: the state and history stay for whenever the id returns.
	states, err := db.CardStates(ctx, uid)
	if c, _ := states.Get("removed-card"); err != nil || c.Reps != 1 {
		t.Fatalf("states %v %v", states, err)
	}
	if h, _ := db.ReviewHistory(ctx, uid, "removed-card"); len(h) != 1 {
		t.Fatal("history lost")
	}
	other, _ := db.CreateUser(ctx, "kim", "h", RoleMember, t0)
	if s, _ := db.CardStates(ctx, other.ID); s.Len() != 0 {
		t.Fatal("states leak between users")
	}
}

func TestStatsQueries(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	ny, _ := time.LoadLocation("America/New_York")
	// 2026-11-01 12:00 UTC is 07:00 in New York; 2026-11-02 07:30 UTC is 02:30 there, before the
	// 04:00 rollover, so it still counts for Nov 1.
	answer(t, db, uid, "a", srs.Good, t0, ModeStudy)
	answer(t, db, uid, "b", srs.Good, time.Date(2026, 11, 2, 7, 30, 0, 0, time.UTC), ModeStudy)
	answer(t, db, uid, "c", srs.Good, time.Date(2026, 11, 3, 15, 0, 0, 0, time.UTC), ModeMock)
	days, err := db.DailyActivity(ctx, uid, time.Time{}, ny)
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 2 || days[0].Reviews != 2 || days[0].DurationMS != 8400 ||
		days[0].Day != time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) || days[1].Day != time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC) {
		t.Fatalf("days %+v", days)
	}
	// Review-state answers: Good, Again, Hard → 2 of 3 passed.
	uid2, _ := db.CreateUser(ctx, "ret", "h", RoleMember, t0)
	now := t0
	answer(t, db, uid2.ID, "r", srs.Easy, now, ModeStudy) // graduates straight to Review
	for _, r := range []srs.Rating{srs.Good, srs.Again} {
		now = now.Add(20 * 24 * time.Hour)
		answer(t, db, uid2.ID, "r", r, now, ModeStudy)
	}
	now = now.Add(24 * time.Hour)
	answer(t, db, uid2.ID, "r", srs.Good, now, ModeStudy) // relearning: not counted
	passed, total, answers, err := db.Retention(ctx, uid2.ID, t0)
	if err != nil || passed != 1 || total != 2 || answers != 4 {
		t.Fatalf("retention %d/%d of %d answers, %v; want 1/2 of 4", passed, total, answers, err)
	}
	if passed, total, answers, _ := db.Retention(ctx, uid2.ID, now.Add(-2*24*time.Hour)); passed != 0 || total != 1 || answers != 2 {
		t.Fatalf("windowed retention %d/%d of %d answers, want 0/1 of 2", passed, total, answers)
	}
}

func TestStreaks(t *testing.T) {
	d := func(day int) DayActivity {
		return DayActivity{Day: time.Date(2026, 11, day, 0, 0, 0, 0, time.UTC), Reviews: 1}
	}
	today := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
	days := []DayActivity{d(1), d(2), d(3), d(4), d(6), d(8), d(9)}
	if c, l := Streaks(days, today); c != 2 || l != 4 {
		t.Fatalf("streaks %d/%d, want 2/4", c, l)
	}
	if c, _ := Streaks(days, today.AddDate(0, 0, 1)); c != 0 {
		t.Fatalf("a day missed still counts as current: %d", c)
	}
	if c, l := Streaks(append(days, d(10)), today); c != 3 || l != 4 {
		t.Fatalf("streaks with today %d/%d, want 3/4", c, l)
	}
}
