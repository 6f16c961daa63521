// Command rawsqlite is bench/run.sh's floor for ratings: the same three statements a rating
// costs (read the card's state, upsert it, append to the review log) as raw transactions on one
// writer connection through modernc SQLite, with nothing of the server around them. The schema
// is the real one: the database is created and migrated by the store package first.
//
//	go run ./bench/rawsqlite -db /tmp/raw.db -d 5s -cards 1000
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/rehearse/rehearse/internal/store"
	_ "modernc.org/sqlite"
)

func main() {
	path := flag.String("db", "", "database file to create (must not exist)")
	dur := flag.Duration("d", 5*time.Second, "duration")
	cards := flag.Int("cards", 1000, "distinct cards rated in turn")
	flag.Parse()
	if *path == "" {
		fmt.Fprintln(os.Stderr, "rawsqlite: -db is required")
		os.Exit(2)
	}
	if err := run(*path, *dur, *cards); err != nil {
		fmt.Fprintln(os.Stderr, "rawsqlite:", err)
		os.Exit(1)
	}
}

func run(path string, dur time.Duration, cards int) error {
	ctx := context.Background()
	s, err := store.Open(ctx, path, nil)
	if err != nil {
		return err
	}
	s.Close()

	// The server's writer settings (internal/store dsn), spelled out: this program is the baseline.
	// Its checkpoints are SQLite's own, on each commit that takes the log past 1,000 pages, as in
	// a plain program; the server's (internal/store/checkpoint.go) are part of what it measures.
	// Its page cache is SQLite's default: the server's 1 MiB gave the same rate (five-second runs).
	q := url.Values{}
	for _, p := range []string{"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(ON)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `INSERT INTO users (username, password_hash, role, created_at) VALUES ('raw', 'x', 'member', 0)`); err != nil {
		return err
	}
	read, err := db.PrepareContext(ctx, `SELECT state, step, stability, difficulty, due, last_review, reps, lapses
		FROM card_states WHERE user_id = 1 AND card_id = ?`)
	if err != nil {
		return err
	}
	upsert, err := db.PrepareContext(ctx, `INSERT INTO card_states (user_id, card_id, state, step, stability, difficulty, due, last_review, reps, lapses)
		VALUES (1, ?, 2, 0, ?, 5, ?, ?, ?, 0)
		ON CONFLICT (user_id, card_id) DO UPDATE SET state = excluded.state, stability = excluded.stability,
		due = excluded.due, last_review = excluded.last_review, reps = excluded.reps`)
	if err != nil {
		return err
	}
	logIns, err := db.PrepareContext(ctx, `INSERT INTO review_log (user_id, card_id, rating, reviewed_at, state_before, step_before,
		stability_before, difficulty_before, due_before, last_review_before, reps_before, lapses_before,
		state_after, stability_after, difficulty_after, elapsed_days, scheduled_days, duration_ms, mode)
		VALUES (1, ?, 3, ?, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3.1, 5, 0, 3, 1200, 'study')`)
	if err != nil {
		return err
	}

	n, start := 0, time.Now()
	for time.Since(start) < dur {
		card := fmt.Sprintf("gen-%04d", n%cards)
		now := time.Now().UnixMilli()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		var st, step, reps, lapses int
		var stab, diff float64
		var due, last int64
		err = tx.StmtContext(ctx, read).QueryRowContext(ctx, card).Scan(&st, &step, &stab, &diff, &due, &last, &reps, &lapses)
		if err != nil && err != sql.ErrNoRows {
			tx.Rollback()
			return err
		}
		if _, err := tx.StmtContext(ctx, upsert).ExecContext(ctx, card, stab+1, now+86_400_000, now, reps+1); err != nil {
			tx.Rollback()
			return err
		}
		if _, err := tx.StmtContext(ctx, logIns).ExecContext(ctx, card, now); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		n++
	}
	el := time.Since(start)
	fmt.Printf("%.0f transactions/s (%d in %s)\n", float64(n)/el.Seconds(), n, el.Round(time.Millisecond))
	return nil
}
