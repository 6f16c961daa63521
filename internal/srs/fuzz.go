package srs

import (
	"hash/fnv"
	"math"
	"math/bits"
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

// fuzz spreads intervals of 3+ days uniformly over fuzzRange. As in Anki, the randomness comes
// from the card's identity and its answer count only, never the clock: the interval a button
// shows is the one pressing it applies, and a reload shows the same numbers.
func (s Scheduler) fuzz(ivl int, key uint64, reps int) int {
	if float64(ivl) < 2.5 {
		return ivl
	}
	lo, hi := fuzzRange(ivl, s.maxInterval())
	seed := splitmix(splitmix(key) ^ uint64(reps))
	// Multiply-shift maps the 64-bit value onto [0, n) without modulo's skew.
	off, _ := bits.Mul64(seed, uint64(hi-lo+1))
	return lo + int(off)
}

// fuzzKey turns a card id into the fuzz seed's first word.
func fuzzKey(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// splitmix is one step of the SplitMix64 generator's output function.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
