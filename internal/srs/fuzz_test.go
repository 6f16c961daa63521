package srs

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

func TestFuzzRange(t *testing.T) {
	cases := []struct{ ivl, max, lo, hi int }{
		{3, 36500, 2, 4},      // delta 1.075
		{7, 36500, 5, 9},      // delta 1.675
		{10, 36500, 8, 12},    // delta 1.975
		{100, 36500, 93, 107}, // delta 6.975
		{100, 100, 93, 100},
		{3, 1, 1, 1},
	}
	for _, c := range cases {
		lo, hi := fuzzRange(c.ivl, c.max)
		if lo != c.lo || hi != c.hi {
			t.Errorf("fuzzRange(%d, %d) = [%d, %d], want [%d, %d]", c.ivl, c.max, lo, hi, c.lo, c.hi)
		}
	}
}

// Property: every fuzzed Review interval lies in the documented range around the
// unfuzzed one; intervals under 2.5 days are never fuzzed.
func TestFuzzBoundsProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fz, plain := DefaultScheduler(), noFuzz()
	for i := range 5000 {
		c := Card{
			State:      Review,
			Stability:  0.05 + rng.Float64()*rng.Float64()*2000,
			Difficulty: 1 + rng.Float64()*9,
			Reps:       rng.IntN(50) + 1,
		}
		c.LastReview = t0.Add(-time.Duration(rng.Int64N(int64(400 * day))))
		if i%7 == 0 {
			fz.MaxInterval, plain.MaxInterval = 30, 30
		} else {
			fz.MaxInterval, plain.MaxInterval = 36500, 36500
		}
		now := t0.Add(time.Duration(rng.Int64N(int64(time.Hour))))
		r := allRatings[1+rng.IntN(3)]
		base := plain.Review(c, r, now)
		got := fz.Review(c, r, now)
		if got.Stability != base.Stability || got.Difficulty != base.Difficulty {
			t.Fatal("fuzz changed the memory state")
		}
		ivl := int(base.Due.Sub(now) / day)
		days := got.Due.Sub(now)
		if days%day != 0 {
			t.Fatalf("fuzzed interval %v is not whole days", days)
		}
		n := int(days / day)
		if ivl < 3 {
			if n != ivl {
				t.Fatalf("interval %d fuzzed to %d", ivl, n)
			}
			continue
		}
		// Range written out from fsrs.md, independently of fuzzRange.
		x := float64(ivl)
		delta := 1 + 0.15*(min(x, 7)-2.5)
		if x > 7 {
			delta += 0.10 * (min(x, 20) - 7)
		}
		if x > 20 {
			delta += 0.05 * (x - 20)
		}
		lo, hi := max(2, roundHalfUp(x-delta)), min(roundHalfUp(x+delta), fz.MaxInterval)
		lo = min(lo, hi)
		if n < lo || n > hi {
			t.Fatalf("interval %d fuzzed to %d, outside [%d, %d]", ivl, n, lo, hi)
		}
	}
}

func roundHalfUp(x float64) int { return int(x + 0.5) }

// Fuzz covers the whole range across cards, and depends only on the card and its answer count:
// not on the clock, so a reload a minute later shows the same intervals.
func TestFuzzDeterminismAndSpread(t *testing.T) {
	s := DefaultScheduler()
	c := reviewCard()
	c.Stability = 30 // unfuzzed 30 days at t=0 with Good
	now := t0.Add(5 * time.Hour)
	first := s.ReviewCard("eager-1", c, Good, now)
	for i := range 10 {
		at := now.Add(time.Duration(i) * time.Minute)
		if again := s.ReviewCard("eager-1", c, Good, at); again.Due.Sub(at) != first.Due.Sub(now) {
			t.Fatalf("same card a minute later: %v vs %v", again.Due.Sub(at), first.Due.Sub(now))
		}
	}
	base := noFuzz().Review(c, Good, now)
	ivl := int(base.Due.Sub(now) / day)
	lo, hi := fuzzRange(ivl, s.MaxInterval)
	seen := map[int]bool{}
	for i := range 2000 {
		seen[int(s.ReviewCard(fmt.Sprintf("card-%d", i), c, Good, now).Due.Sub(now)/day)] = true
	}
	for d := lo; d <= hi; d++ {
		if !seen[d] {
			t.Errorf("interval %d in [%d, %d] never produced over 2000 cards", d, lo, hi)
		}
	}
	if len(seen) != hi-lo+1 {
		t.Errorf("produced %d distinct intervals, want %d", len(seen), hi-lo+1)
	}
	// The answer count is part of the seed: the same card's next answers spread too.
	byReps := map[int]bool{}
	for reps := range 200 {
		c.Reps = reps
		byReps[int(s.ReviewCard("eager-1", c, Good, now).Due.Sub(now)/day)] = true
	}
	if len(byReps) < 2 {
		t.Error("the answer count does not move the fuzz")
	}
}

// The interval each button shows (Preview when the card is displayed) is the interval applied
// when it is pressed a little later (issue 16).
func TestPreviewMatchesAppliedInterval(t *testing.T) {
	s := DefaultScheduler()
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 500 {
		c := reviewCard()
		c.Stability = 1 + rng.Float64()*200
		c.Difficulty = 1 + rng.Float64()*9
		c.Reps = rng.IntN(30)
		id := fmt.Sprintf("card-%d", i)
		shown := t0.Add(time.Duration(rng.IntN(90*24)) * time.Hour)
		preview := s.PreviewCard(id, c, shown)
		pressed := shown.Add(time.Duration(1+rng.IntN(120)) * time.Second)
		for j, r := range allRatings {
			got := s.ReviewCard(id, c, r, pressed)
			if want := preview[j].Due.Sub(shown); got.Due.Sub(pressed) != want {
				t.Fatalf("card %s %v: button showed %v, pressing applied %v", id, r, want, got.Due.Sub(pressed))
			}
		}
	}
}

func TestFuzzOnlyInReview(t *testing.T) {
	s := DefaultScheduler()
	for i := range 50 {
		now := t0.Add(time.Duration(i) * time.Minute)
		if got := s.Review(Card{}, Good, now); got.Due.Sub(now) != 10*time.Minute {
			t.Fatalf("learning step fuzzed: %v", got.Due.Sub(now))
		}
		lapse := s.Review(reviewCard(), Again, now.Add(12*day))
		if got := lapse.Due.Sub(lapse.LastReview); got != 10*time.Minute {
			t.Fatalf("relearning step fuzzed: %v", got)
		}
	}
}
