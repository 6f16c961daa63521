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
	// SQLite sums the answers per quarter hour, and the quarters are then put in their study
	// day here: every zone's offset is a whole number of quarter hours, so no quarter straddles
	// two days, and a session's answers come back as a few rows rather than one each.
	rows, err := db.query(ctx, `SELECT reviewed_at / ? * ?, count(*), sum(duration_ms) FROM review_log
		WHERE user_id = ? AND reviewed_at >= ? AND undone = 0 GROUP BY 1 ORDER BY 1`,
		quarterMS, quarterMS, userID, ms(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []DayActivity
	for rows.Next() {
		var at, n, dur int64
		if err := rows.Scan(&at, &n, &dur); err != nil {
			return nil, err
		}
		day := study.Day(fromMS(at), loc)
		if n := len(out); n == 0 || !out[n-1].Day.Equal(day) {
			out = append(out, DayActivity{Day: day})
		}
		out[len(out)-1].Reviews += int(n)
		out[len(out)-1].DurationMS += dur
	}
	return out, rows.Err()
}

const quarterMS = 15 * 60 * 1000

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

// Retention counts a user's answers at or after since (every state, both modes, undone ones
// excluded), those given to cards in the Review state, and how many of the latter were not
// Again: true retention is passed/total, and answers-total did not count towards it.
func (db *DB) Retention(ctx context.Context, userID int64, since time.Time) (passed, total, answers int, err error) {
	err = db.queryRow(ctx, `SELECT count(*), coalesce(sum(state_before = 2), 0),
			coalesce(sum(state_before = 2 AND rating > 1), 0)
		FROM review_log WHERE user_id = ? AND reviewed_at >= ? AND undone = 0`,
		userID, ms(since)).Scan(&answers, &total, &passed)
	return passed, total, answers, err
}
