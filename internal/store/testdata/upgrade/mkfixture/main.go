// Command mkfixture writes the upgrade test's database with the store of commit bd8c7a5, the
// first whole app with migrations (001-003: accounts, study, mock interviews). It is kept here
// as the record of how first.db was made; go build ignores testdata. To make it again:
//
//	git clone -q . /tmp/v1 && git -C /tmp/v1 checkout -q bd8c7a5
//	cp -r internal/store/testdata/upgrade/mkfixture /tmp/v1/cmd/
//	(cd /tmp/v1 && go run ./cmd/mkfixture /tmp/first.db)
//	sqlite3 /tmp/first.db 'PRAGMA wal_checkpoint(TRUNCATE); VACUUM'
//	cp /tmp/first.db internal/store/testdata/upgrade/first.db
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
)

func main() {
	ctx := context.Background()
	db, err := store.Open(ctx, os.Args[1], nil)
	must(err)
	defer db.Close()
	t0 := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	ada, err := db.CreateFirstAdmin(ctx, "ada", "$argon2id$v=19$m=65536,t=1,p=2$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA", t0)
	must(err)
	kim, err := db.CreateUser(ctx, "kim", "$argon2id$v=19$m=65536,t=1,p=2$c2FsdHNhbHQ$a2ltaGFzaGtpbWhhc2g", store.RoleMember, t0)
	must(err)
	must(db.UpdateSettings(ctx, kim.ID, store.Settings{DesiredRetention: 0.85, NewPerDay: 7, DefaultDepth: "solid", TimeZone: "Europe/Paris"}))
	must(db.CreateSession(ctx, []byte("0123456789abcdef0123456789abcdef"), ada.ID, t0, t0.Add(720*time.Hour)))
	sc := srs.DefaultScheduler()
	for i, u := range []int64{ada.ID, kim.ID} {
		for c := range 3 {
			card := fmt.Sprintf("card-%d", c)
			var st srs.Card
			for r := range 2 + i {
				at := t0.Add(time.Duration(c*24+r*48) * time.Hour)
				next := sc.Review(st, srs.Rating(1+(c+r)%4), at)
				_, err := db.RecordReview(ctx, u, card, st, next, srs.Rating(1+(c+r)%4), at, int64(4000+c*100+r), "study")
				must(err)
				st = next
			}
		}
	}
	_, err = db.UndoLast(ctx, kim.ID, t0.Add(200*time.Hour))
	must(err)
	s, err := db.CreateMockSession(ctx, ada.ID, store.MockSettings{Seed: 42, Seeded: true, Topics: []string{"eager"}, N: 2,
		Depth: "basics", FollowUps: true, Clock: "strict", RecordReviews: true},
		[]store.MockQuestion{{CardID: "card-0", Target: 20 * time.Second, FollowUpIndex: 0, FollowUpTarget: 15 * time.Second},
			{CardID: "card-1", Target: 20 * time.Second, FollowUpIndex: -1}}, t0)
	must(err)
	must(db.MarkMockShown(ctx, s.ID, 0, t0.Add(time.Minute)))
	must(db.SubmitMockAnswer(ctx, s.ID, 0, store.MockSubmission{At: t0.Add(90 * time.Second), Used: 30 * time.Second,
		Typed: "members keep their partitions", Covered: []int{0, 2}, Pitfalls: []int{1}}))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkfixture:", err)
		os.Exit(1)
	}
}
