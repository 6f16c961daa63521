package srs

import (
	"math/bits"
	"time"
)

// DefaultDeadlineWindow is how many days before an interview date every studied card is seen
// again.
const DefaultDeadlineWindow = 3

// deadlineDays applies the interview date to a Review interval of n days given at now. Before
// the last DeadlineWindow days, an interval that would carry the card past the date is cut so
// the card comes back within those days, spread over them by the card's fuzz seed so they do
// not all land on the eve. Inside the window (the card was just seen) and after the date the
// interval is FSRS's own, so removing the date changes nothing else.
func (s Scheduler) deadlineDays(n int, now time.Time, key uint64, reps int) int {
	if s.Deadline.IsZero() {
		return n
	}
	w := max(s.DeadlineWindow, 1)
	windowStart := s.Deadline.Add(-time.Duration(w) * day)
	if !now.Before(windowStart) || now.Add(time.Duration(n)*day).Before(s.Deadline) {
		return n
	}
	left := int((s.Deadline.Sub(now) - 1) / day) // n ≤ left keeps the next review before the date
	lo := max(left-w+1, 1)
	off, _ := bits.Mul64(splitmix(splitmix(key^0xdead)^uint64(reps)), uint64(left-lo+1))
	return lo + int(off)
}

// PullIn is where a card scheduled before the interview date was set should now be due: a
// Review card due after the date and not seen in its last days comes back on one of those
// days (now, if they have begun). ok is false when the card stays as it is.
func (s Scheduler) PullIn(id string, c Card, now time.Time) (due time.Time, ok bool) {
	if s.Deadline.IsZero() || c.State != Review || !now.Before(s.Deadline) || !c.Due.After(s.Deadline) {
		return c.Due, false
	}
	w := max(s.DeadlineWindow, 1)
	windowStart := s.Deadline.Add(-time.Duration(w) * day)
	if !c.LastReview.Before(windowStart) {
		return c.Due, false
	}
	off, _ := bits.Mul64(splitmix(splitmix(fuzzKey(id)^0xdead)^uint64(c.Reps)), uint64(w))
	due = s.Deadline.Add(-time.Duration(int(off)+1) * day)
	if due.Before(now) {
		due = now
	}
	return due, true
}
