package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

func TestTeamQueries(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	ada, _ := db.CreateUser(ctx, "ada", "h", RoleAdmin, t0)
	bob, _ := db.CreateUser(ctx, "bob", "h", RoleMember, t0)
	hid, _ := db.CreateUser(ctx, "hid", "h", RoleMember, t0)
	off, _ := db.CreateUser(ctx, "off", "h", RoleMember, t0)
	// Who may see whom is the server's rule: the store returns every enabled account.
	if err := db.SetSharing(ctx, bob.ID, true, t0); err != nil {
		t.Fatal(err)
	}
	if sh, err := db.Sharing(ctx); err != nil || !sh[bob.ID] || sh[hid.ID] || len(sh) != 1 {
		t.Fatalf("sharing = %v, %v", sh, err)
	}
	if err := db.SetSharing(ctx, bob.ID, false, t0); err != nil {
		t.Fatal(err)
	}
	if yes, _ := db.Shares(ctx, bob.ID); yes {
		t.Fatal("bob still shares after stopping")
	}
	if err := db.SetDisabled(ctx, off.ID, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	users, err := db.TeamUsers(ctx)
	if err != nil || len(users) != 3 || users[0].Username != "ada" || users[1].Username != "bob" || users[2].Username != "hid" {
		t.Fatalf("team users = %v, %v", users, err)
	}

	sch := srs.DefaultScheduler()
	sch.Fuzz = false
	review := func(uid int64, card string, at time.Time, st srs.Card) srs.Card {
		t.Helper()
		after := sch.Review(st, srs.Good, at)
		if _, err := db.RecordReview(ctx, uid, card, st, after, srs.Good, at, 1000, ModeStudy); err != nil {
			t.Fatal(err)
		}
		return after
	}
	// ada: one answer 20 days ago and one today; bob: one 3 days ago; hid: one today.
	review(ada.ID, "a", t0.AddDate(0, 0, -20), srs.Card{})
	review(ada.ID, "b", t0, srs.Card{})
	review(bob.ID, "a", t0.AddDate(0, 0, -3), srs.Card{})
	review(hid.ID, "a", t0, srs.Card{})
	counts, err := db.ReviewCounts(ctx, t0.AddDate(0, 0, -7), t0.AddDate(0, 0, -30))
	if err != nil {
		t.Fatal(err)
	}
	if c := counts[ada.ID]; len(c) != 2 || c[0] != 1 || c[1] != 2 {
		t.Fatalf("ada counts = %v", c)
	}
	if c := counts[bob.ID]; c[0] != 1 || c[1] != 1 {
		t.Fatalf("bob counts = %v", c)
	}

	states, err := db.TeamCardStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := states[hid.ID]; !ok || len(states[ada.ID]) != 2 || states[bob.ID]["a"].Reps != 1 {
		t.Fatalf("team card states = %v", states)
	}

	// Last ratings: the latest answer wins, an undone one does not count.
	again := sch.Review(states[ada.ID]["b"], srs.Again, t0.Add(time.Hour))
	if _, err := db.RecordReview(ctx, ada.ID, "b", states[ada.ID]["b"], again, srs.Again, t0.Add(time.Hour), 1000, ModeStudy); err != nil {
		t.Fatal(err)
	}
	last, err := db.TeamLastRatings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if last[ada.ID]["a"] != int(srs.Good) || last[ada.ID]["b"] != int(srs.Again) || last[bob.ID]["a"] != int(srs.Good) || last[hid.ID]["a"] != int(srs.Good) {
		t.Fatalf("last ratings = %v", last)
	}
	if _, err := db.UndoLast(ctx, ada.ID, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if last, _ = db.TeamLastRatings(ctx); last[ada.ID]["b"] != int(srs.Good) {
		t.Fatalf("after undo, ada's last rating of b = %d, want Good", last[ada.ID]["b"])
	}

	// Mastery: force one of bob's cards to a 30-day stability.
	if _, err := db.w.Exec("UPDATE card_states SET stability = 30 WHERE user_id = ?", bob.ID); err != nil {
		t.Fatal(err)
	}
	mastered, err := db.MasteredCounts(ctx, 21)
	if err != nil || mastered[bob.ID] != 1 || mastered[ada.ID] != 0 {
		t.Fatalf("mastered = %v, %v", mastered, err)
	}

	// Mock answers: only finished sessions count.
	for i, status := range []string{"finished", "active"} {
		res, err := db.w.Exec(`INSERT INTO mock_sessions (user_id, created_at, seed, n, depth, clock, status)
			VALUES (?, ?, 1, 1, 'basics', 'soft', ?)`, bob.ID, ms(t0), status)
		if err != nil {
			t.Fatal(err)
		}
		sid, _ := res.LastInsertId()
		if _, err := db.w.Exec(`INSERT INTO mock_answers (session_id, position, card_id, target_ms, used_ms, covered, pitfalls_hit, rating)
			VALUES (?, 0, 'a', 20000, ?, '[0,2]', '[1]', 3)`, sid, 10000+i); err != nil {
			t.Fatal(err)
		}
	}
	mocks, err := db.FinishedMockAnswers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := mocks[bob.ID]; len(got) != 1 || !slices.Equal(got[0].Covered, []int{0, 2}) || got[0].HasText || got[0].SpokenMS != 0 || got[0].Depth == "" || got[0].PitfallsHit != 1 || got[0].UsedMS != 10000 || got[0].Rating != 3 {
		t.Fatalf("mock answers = %+v", got)
	}
}
