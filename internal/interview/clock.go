package interview

import "time"

// The mock interview's clock. The server measures every answer from when its question was
// first shown; under a strict clock an answer stops at the target.

// Grace is how late a strict-clock answer may arrive and still keep its text: the page submits
// at zero, and the request needs a moment to reach the server.
const Grace = 2 * time.Second

// Clock is a session's clock: soft (time shown, never enforced) or strict.
type Clock struct{ Strict bool }

// RanOut reports whether a question shown at shown has run out at now: only a strict clock does,
// once the target has passed. The server then stores an empty answer that used the whole target.
func (c Clock) RanOut(shown, now time.Time, target time.Duration) bool {
	return c.Strict && !now.Before(shown.Add(target))
}

// Remaining is the time left on the question at now (negative once over the target).
func (c Clock) Remaining(shown, now time.Time, target time.Duration) time.Duration {
	return shown.Add(target).Sub(now)
}

// Used measures an answer submitted at now: the time since it was shown, whether the clock ran
// out, and the text kept. A strict clock stops at the target and drops text arriving after the
// grace period.
func (c Clock) Used(shown, now time.Time, target time.Duration, typed string) (time.Duration, bool, string) {
	used := max(now.Sub(shown), 0)
	if !c.Strict || used < target {
		return used, false, typed
	}
	if used > target+Grace {
		typed = ""
	}
	return target, true, typed
}
