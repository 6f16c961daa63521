package srs

import (
	"fmt"
	"testing"
	"time"
)

// Every card reviewed whenever it falls due before an interview date is seen in the last
// DeadlineWindow days before it, whatever its memory; without the date the same cards would
// skip past it.
func TestDeadlineBringsEveryCardBackInTheLastDays(t *testing.T) {
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	date := start.AddDate(0, 0, 40).Add(-5 * time.Hour) // 04:00 forty days on
	with := DefaultScheduler()
	with.Deadline, with.DeadlineWindow = date, 3
	without := DefaultScheduler()
	windowStart := date.AddDate(0, 0, -3)
	skipped := 0
	for i := range 300 {
		id := fmt.Sprintf("card-%d", i)
		// A spread of memories: the first rating and the day it was first seen differ.
		first := start.AddDate(0, 0, i%25)
		g := Rating(2 + i%3)
		for _, sc := range []Scheduler{with, without} {
			c := sc.ReviewCard(id, Card{}, g, first)
			var last time.Time
			for c.Due.Before(date) {
				last = c.Due
				c = sc.ReviewCard(id, c, Good, c.Due)
			}
			if sc.Deadline.IsZero() {
				if last.Before(windowStart) {
					skipped++
				}
				continue
			}
			if last.Before(windowStart) || !last.Before(date) {
				t.Fatalf("%s: last review before the date at %v, want within [%v, %v)", id, last, windowStart, date)
			}
		}
	}
	if skipped == 0 {
		t.Error("without a date no card skipped the last days: the test shows nothing")
	}
}

func TestDeadlineLeavesIntervalsAloneInsideTheWindowAndAfter(t *testing.T) {
	date := time.Date(2026, 5, 20, 4, 0, 0, 0, time.UTC)
	with := noFuzz()
	with.Deadline, with.DeadlineWindow = date, 3
	without := noFuzz()
	c := Card{State: Review, Stability: 40, Difficulty: 5, LastReview: date.AddDate(0, 0, -30), Reps: 5}
	for _, now := range []time.Time{
		date.AddDate(0, 0, -2),  // inside the window: this review is the last-days one
		date.Add(2 * time.Hour), // on the day
		date.AddDate(0, 0, 10),  // after it
	} {
		a, b := with.ReviewCard("x", c, Good, now), without.ReviewCard("x", c, Good, now)
		if !a.Due.Equal(b.Due) {
			t.Errorf("review at %v: due %v with the date, %v without; want the same", now, a.Due, b.Due)
		}
	}
	// Before the window a long interval is cut to land in it.
	now := date.AddDate(0, 0, -20)
	a := with.ReviewCard("x", c, Good, now)
	if a.Due.Before(date.AddDate(0, 0, -3)) || !a.Due.Before(date) {
		t.Errorf("review 20 days before: due %v, want in the 3 days before %v", a.Due, date)
	}
	if b := without.ReviewCard("x", c, Good, now); !b.Due.After(date) {
		t.Fatalf("without the date the interval (%v) already stops before it: the case shows nothing", b.Due)
	}
}

func TestPullIn(t *testing.T) {
	date := time.Date(2026, 5, 20, 4, 0, 0, 0, time.UTC)
	sc := DefaultScheduler()
	sc.Deadline, sc.DeadlineWindow = date, 3
	now := date.AddDate(0, 0, -10)
	far := Card{State: Review, Stability: 90, Difficulty: 5, LastReview: now.AddDate(0, 0, -5), Due: date.AddDate(0, 0, 60), Reps: 4}
	due, ok := sc.PullIn("a", far, now)
	if !ok || due.Before(date.AddDate(0, 0, -3)) || !due.Before(date) {
		t.Errorf("card due after the date: pulled in to %v (%v), want within the 3 days before %v", due, ok, date)
	}
	near := far
	near.Due = date.AddDate(0, 0, -6)
	if _, ok := sc.PullIn("a", near, now); ok {
		t.Error("a card due before the date was moved")
	}
	learning := far
	learning.State = Learning
	if _, ok := sc.PullIn("a", learning, now); ok {
		t.Error("a learning card was moved")
	}
	late := date.AddDate(0, 0, -1) // the window has begun: the card is due now
	if due, ok := sc.PullIn("a", far, late); !ok || !due.Equal(late) {
		t.Errorf("inside the window: pulled in to %v (%v), want now %v", due, ok, late)
	}
	sc.Deadline = time.Time{}
	if _, ok := sc.PullIn("a", far, now); ok {
		t.Error("moved without a date")
	}
}
