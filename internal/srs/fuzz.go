package srs

import (
	"math"
	"math/bits"
	"time"
)

// fuzzRanges: each day of the interval inside [start, end) widens the fuzz by factor days.
var fuzzRanges = [...]struct{ start, end, factor float64 }{
	{2.5, 7, 0.15},
	{7, 20, 0.10},
	{20, math.Inf(1), 0.05},
}

// fuzzRange returns the inclusive bounds a Review interval of ivl days may be moved to.
func fuzzRange(ivl, maxIvl int) (lo, hi int) {
	x := float64(ivl)
	delta := 1.0
	for _, r := range fuzzRanges {
		delta += r.factor * math.Max(math.Min(x, r.end)-r.start, 0)
	}
	lo = max(2, int(math.Round(x-delta)))
	hi = min(int(math.Round(x+delta)), maxIvl)
	lo = min(lo, hi)
	return lo, hi
}

// fuzz spreads intervals of 3+ days uniformly over fuzzRange. The randomness is derived
// from the review itself (time, reps, new memory state), so replaying a review gives the
// same due date and no shared generator is touched.
func (s Scheduler) fuzz(ivl int, c Card, now time.Time) int {
	if float64(ivl) < 2.5 {
		return ivl
	}
	lo, hi := fuzzRange(ivl, s.maxInterval())
	seed := splitmix(uint64(now.UnixNano()))
	seed = splitmix(seed ^ uint64(c.Reps))
	seed = splitmix(seed ^ math.Float64bits(c.Stability))
	seed = splitmix(seed ^ math.Float64bits(c.Difficulty))
	// Multiply-shift maps the 64-bit value onto [0, n) without modulo's skew.
	off, _ := bits.Mul64(seed, uint64(hi-lo+1))
	return lo + int(off)
}

// splitmix is one step of the SplitMix64 generator's output function.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
