package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/study"
)

// job is an answer as study.Rate would send it: rated Good from the stored state, refused as
// stale unless the stored answer count is shownReps.
func job(ctx context.Context, uid int64, card string, shownReps int, at time.Time) *reviewJob {
	return &reviewJob{ctx: ctx, userID: uid, cardID: card, done: make(chan struct{}),
		a: study.Logged{Rating: srs.Good, At: at, DurationMS: 1000, Mode: ModeStudy},
		next: func(before srs.Card) (srs.Card, error) {
			if before.Reps != shownReps {
				return srs.Card{}, study.ErrStale
			}
			return srs.DefaultScheduler().Review(before, srs.Good, at), nil
		}}
}

func logRows(t *testing.T, db *DB, uid int64, card string) int {
	t.Helper()
	h, err := db.ReviewHistory(context.Background(), uid, card)
	if err != nil {
		t.Fatal(err)
	}
	return len(h)
}

// One transaction carries several answers: each sees the ones before it (the same card twice:
// the second is stale), a request that gave up is skipped, and every stored answer has its id.
func TestReviewBatchSharesOneTransaction(t *testing.T) {
	db := openTest(t)
	uid := studyUser(t, db)
	ctx := context.Background()
	gone, cancel := context.WithCancel(ctx)
	cancel()
	batch := []*reviewJob{
		job(ctx, uid, "c1", 0, t0),
		job(ctx, uid, "c1", 0, t0), // a second tab, shown the same state
		job(gone, uid, "c2", 0, t0),
		job(ctx, uid, "c3", 0, t0),
	}
	db.writeBatch(batch)
	if batch[0].err != nil || batch[0].id == 0 || batch[3].err != nil || batch[3].id <= batch[0].id {
		t.Fatalf("answers 1 and 4: id %d err %v, id %d err %v", batch[0].id, batch[0].err, batch[3].id, batch[3].err)
	}
	if !errors.Is(batch[1].err, study.ErrStale) || batch[1].id != 0 {
		t.Fatalf("second tab: id %d err %v, want ErrStale", batch[1].id, batch[1].err)
	}
	if !errors.Is(batch[2].err, context.Canceled) {
		t.Fatalf("abandoned request: %v", batch[2].err)
	}
	for card, want := range map[string]int{"c1": 1, "c2": 0, "c3": 1} {
		if n := logRows(t, db, uid, card); n != want {
			t.Errorf("%s: %d log rows, want %d", card, n, want)
		}
	}
}

// A write that fails inside a shared transaction fails alone: the others are written again in
// transactions of their own, each exactly once.
func TestReviewBatchFailureFailsAlone(t *testing.T) {
	db := openTest(t)
	uid := studyUser(t, db)
	ctx := context.Background()
	// No such user: the state upsert breaks the foreign key after earlier answers were written.
	batch := []*reviewJob{job(ctx, uid, "c1", 0, t0), job(ctx, 9999, "c2", 0, t0), job(ctx, uid, "c3", 0, t0)}
	db.writeBatch(batch)
	if batch[0].err != nil || batch[2].err != nil || batch[0].id == 0 || batch[2].id == 0 {
		t.Fatalf("good answers: %v %v (ids %d %d)", batch[0].err, batch[2].err, batch[0].id, batch[2].id)
	}
	if batch[1].err == nil || !strings.Contains(batch[1].err.Error(), "FOREIGN KEY") || batch[1].id != 0 {
		t.Fatalf("bad answer: id %d err %v", batch[1].id, batch[1].err)
	}
	if logRows(t, db, uid, "c1") != 1 || logRows(t, db, uid, "c3") != 1 {
		t.Fatal("a good answer was not stored exactly once")
	}
	// A panic in the scheduling step is one request's error, not the writer's end.
	boom := job(ctx, uid, "c4", 0, t0)
	boom.next = func(srs.Card) (srs.Card, error) { panic("scheduler bug") }
	batch = []*reviewJob{boom, job(ctx, uid, "c5", 0, t0)}
	db.writeBatch(batch)
	if batch[0].err == nil || batch[1].err != nil || logRows(t, db, uid, "c4") != 0 || logRows(t, db, uid, "c5") != 1 {
		t.Fatalf("panic: %v, neighbour: %v", batch[0].err, batch[1].err)
	}
}

// Many users answering at once through the queue: every answer is acknowledged and stored once
// with its own id, and of two tabs answering one card exactly one wins.
func TestReviewsConcurrent(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	var uids []int64
	for i := range 5 {
		u, err := db.CreateUser(ctx, fmt.Sprintf("user%d", i), "h", RoleMember, t0)
		if err != nil {
			t.Fatal(err)
		}
		uids = append(uids, u.ID)
	}
	type result struct {
		id  int64
		err error
	}
	const perUser = 20
	results := make(chan result, len(uids)*(perUser+2))
	var wg sync.WaitGroup
	for _, uid := range uids {
		for c := range perUser {
			wg.Go(func() {
				j := job(ctx, uid, fmt.Sprintf("card%d", c), 0, t0)
				id, err := db.ApplyReview(ctx, uid, j.cardID, j.a, j.next)
				results <- result{id, err}
			})
		}
		for range 2 { // two tabs on one card
			wg.Go(func() {
				j := job(ctx, uid, "shared", 0, t0)
				id, err := db.ApplyReview(ctx, uid, j.cardID, j.a, j.next)
				results <- result{id, err}
			})
		}
	}
	wg.Wait()
	close(results)
	ids, stale := map[int64]bool{}, 0
	for r := range results {
		switch {
		case errors.Is(r.err, study.ErrStale):
			stale++
		case r.err != nil:
			t.Fatal(r.err)
		case ids[r.id]:
			t.Fatalf("id %d acknowledged twice", r.id)
		default:
			ids[r.id] = true
		}
	}
	if len(ids) != len(uids)*(perUser+1) || stale != len(uids) {
		t.Fatalf("%d stored, %d stale; want %d and %d", len(ids), stale, len(uids)*(perUser+1), len(uids))
	}
	var rows int
	if err := db.r.QueryRow(`SELECT count(*) FROM review_log`).Scan(&rows); err != nil || rows != len(ids) {
		t.Fatalf("review_log has %d rows for %d acknowledged answers (%v)", rows, len(ids), err)
	}
	for _, uid := range uids {
		if n := logRows(t, db, uid, "shared"); n != 1 {
			t.Fatalf("user %d: shared card logged %d times", uid, n)
		}
	}
}

func TestReviewAfterClose(t *testing.T) {
	db := openTest(t)
	uid := studyUser(t, db)
	ctx := context.Background()
	j := job(ctx, uid, "c1", 0, t0)
	if _, err := db.ApplyReview(ctx, uid, "c1", j.a, j.next); err != nil {
		t.Fatal(err)
	}
	db.Close()
	done := make(chan error, 1)
	go func() {
		_, err := db.ApplyReview(ctx, uid, "c2", j.a, j.next)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("answer accepted after Close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("answer after Close hangs")
	}
}

// BenchmarkReviews runs answers from 50 goroutines (RunParallel × 25 per CPU at -cpu 2), each
// its own user, through the queue ("shared") and one transaction per answer as before the
// queue ("one-each": each answer waits for database/sql's single writer connection). Same
// statements, same database.
//
//	go test ./internal/store -run XXX -bench Reviews -cpu 2
func BenchmarkReviews(b *testing.B) {
	for _, mode := range []string{"shared", "one-each"} {
		b.Run(mode, func(b *testing.B) {
			db := openTest(b)
			ctx := context.Background()
			var uids []int64
			for i := range 50 {
				u, err := db.CreateUser(ctx, fmt.Sprintf("user%d", i), "h", RoleMember, t0)
				if err != nil {
					b.Fatal(err)
				}
				uids = append(uids, u.ID)
			}
			var next atomic.Int64
			b.SetParallelism(25)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				uid := uids[next.Add(1)%int64(len(uids))]
				for i := 0; pb.Next(); i++ {
					j := job(ctx, uid, fmt.Sprintf("gen-%04d", i%1000), -1, t0)
					j.next = func(before srs.Card) (srs.Card, error) {
						return srs.DefaultScheduler().Review(before, srs.Good, t0), nil
					}
					if mode == "shared" {
						_, j.err = db.ApplyReview(ctx, uid, j.cardID, j.a, j.next)
					} else { // as ApplyReview was: each caller waits for the pool's one writer
						stmts, err := db.writeStmts(ctx, cardStateSQL, upsertCardSQL, insertReviewSQL)
						if err != nil {
							b.Fatal(err)
						}
						j.err = db.tx(ctx, func(tx *sql.Tx) error {
							_, _, err := bindReview(ctx, tx, stmts).apply(ctx, j)
							return err
						})
					}
					if j.err != nil {
						b.Fatal(j.err)
					}
				}
			})
		})
	}
}
