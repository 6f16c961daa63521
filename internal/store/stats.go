package store

import (
	"context"
	"time"

	"github.com/rehearse/rehearse/internal/study"
)

// DayActivity is what a user did on one study day.
type DayActivity struct {
	Day        time.Time // as from study.Day
	Reviews    int
	DurationMS int64
}

// DailyActivity returns the user's answers (all modes, undone ones excluded) at or after since,
// grouped by study day in loc, oldest day first; days without answers are left out.
func (db *DB) DailyActivity(ctx context.Context, userID int64, since time.Time, loc *time.Location) ([]DayActivity, error) {
	rows, err := db.query(ctx, `SELECT reviewed_at, duration_ms FROM review_log
		WHERE user_id = ? AND reviewed_at >= ? AND undone = 0 ORDER BY reviewed_at`, userID, ms(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DayActivity
	for rows.Next() {
		var at, dur int64
		if err := rows.Scan(&at, &dur); err != nil {
			return nil, err
		}
		day := study.Day(fromMS(at), loc)
		if n := len(out); n == 0 || !out[n-1].Day.Equal(day) {
			out = append(out, DayActivity{Day: day})
		}
		out[len(out)-1].Reviews++
		out[len(out)-1].DurationMS += dur
	}
	return out, rows.Err()
}

// Streaks returns the current streak (consecutive study days with answers ending today, or
// yesterday when today has none yet) and the longest one. days must be sorted oldest first.
func Streaks(days []DayActivity, today time.Time) (current, longest int) {
	run := 0
	var prev time.Time
	for _, d := range days {
		if d.Reviews == 0 {
			continue
		}
		if run > 0 && d.Day.Equal(prev.AddDate(0, 0, 1)) {
			run++
		} else {
			run = 1
		}
		prev = d.Day
		longest = max(longest, run)
	}
	if run > 0 && (prev.Equal(today) || prev.Equal(today.AddDate(0, 0, -1))) {
		current = run
	}
	return current, longest
}

// Retention counts a user's answers to cards in the Review state at or after since, and how
// many of them were not Again: true retention is passed/total.
func (db *DB) Retention(ctx context.Context, userID int64, since time.Time) (passed, total int, err error) {
	err = db.queryRow(ctx, `SELECT count(*), coalesce(sum(rating > 1), 0) FROM review_log
		WHERE user_id = ? AND reviewed_at >= ? AND state_before = 2 AND undone = 0`,
		userID, ms(since)).Scan(&total, &passed)
	return passed, total, err
}

// AnswersSince counts a user's answers (every state, both modes, undone ones excluded) at or
// after since: the stats page says how many did not count towards true retention.
func (db *DB) AnswersSince(ctx context.Context, userID int64, since time.Time) (int, error) {
	var n int
	err := db.queryRow(ctx, `SELECT count(*) FROM review_log
		WHERE user_id = ? AND reviewed_at >= ? AND undone = 0`, userID, ms(since)).Scan(&n)
	return n, err
}
