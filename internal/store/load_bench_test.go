package store

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// seedTeam fills a database as bench/run.sh does: users users with cards card states each and
// the answer that put each card there, interleaved the way the load's writes leave them.
func seedTeam(b *testing.B, users, cards int) (*DB, time.Time) {
	b.Helper()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(b.TempDir(), "bench.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	for i := range users {
		if _, err := db.CreateUser(ctx, fmt.Sprintf("bench%02d", i+1), "h", RoleMember, now); err != nil {
			b.Fatal(err)
		}
	}
	nowMS := now.UnixMilli()
	_, err = db.w.ExecContext(ctx, fmt.Sprintf(`
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < %d - 1)
INSERT INTO card_states (user_id, card_id, state, step, stability, difficulty, due, last_review, reps, lapses)
SELECT u.id, printf('gen-%%04d', n.i), 2, 0, 1 + (n.i * 7 + u.id) %% 60, 5.0,
	%d + ((n.i * 13 + u.id * 7) %% 400 - 20) * 3600000, %d - 3 * 86400000, 1, 0
FROM users u, n;
INSERT INTO review_log (user_id, card_id, rating, reviewed_at, state_before, step_before, stability_before,
	difficulty_before, due_before, last_review_before, reps_before, lapses_before, state_after,
	stability_after, difficulty_after, elapsed_days, scheduled_days, duration_ms, mode)
SELECT user_id, card_id, 3, last_review, 0, 0, 0, 0, 0, 0, 0, 0, 2, stability, 5.0, 0,
	(due - last_review) / 86400000.0, 8000, 'study' FROM card_states;`, cards, nowMS, nowMS))
	if err != nil {
		b.Fatal(err)
	}
	return db, now
}

func BenchmarkTeamReads(b *testing.B) {
	db, now := seedTeam(b, 20, 1000)
	ctx := context.Background()
	b.Run("CardStates", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for i := range b.N {
			if _, err := db.CardStates(ctx, int64(i%20+1)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("QueueStates", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for i := range b.N {
			if _, err := db.QueueStates(ctx, int64(i%20+1)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DailyActivity", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for i := range b.N {
			if _, err := db.DailyActivity(ctx, int64(i%20+1), time.Time{}, time.UTC); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("RetentionAnswers", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for i := range b.N {
			for _, d := range []int{7, 30} {
				if _, _, _, err := db.Retention(ctx, int64(i%20+1), now.AddDate(0, 0, -d)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkTeamCardStatesParallel reads states from as many connections as the server's
// requests do, each with its own page cache.
func BenchmarkTeamCardStatesParallel(b *testing.B) {
	db, _ := seedTeam(b, 20, 1000)
	ctx := context.Background()
	b.SetParallelism(4)
	var n atomic.Int64
	b.ResetTimer()
	defer reportCPU(b, cpuTime())
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := db.CardStates(ctx, n.Add(7)%20+1); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// reportCPU reports the process's CPU time per operation (cpu-ns/op) beside the wall time,
// where the system tells it: on a shared machine it is the steadier figure.
func reportCPU(b *testing.B, start time.Duration) {
	if end := cpuTime(); end > 0 {
		b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
	}
}
