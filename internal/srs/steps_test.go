package srs

import (
	"testing"
	"time"
)

// reviewCard is a graduated card last seen at t0.
func reviewCard() Card {
	return Card{State: Review, Stability: 12, Difficulty: 5, LastReview: t0, Due: t0.Add(12 * day), Reps: 3}
}

func expect(t *testing.T, name string, c Card, state State, step int, due time.Time) {
	t.Helper()
	if c.State != state || c.Step != step || !c.Due.Equal(due) {
		t.Errorf("%s: got %v step %d due +%v; want %v step %d due +%v",
			name, c.State, c.Step, c.Due.Sub(c.LastReview), state, step, due.Sub(c.LastReview))
	}
}

func TestLearningSteps(t *testing.T) {
	s := noFuzz() // steps 1m, 10m
	expect(t, "new+again", s.Review(Card{}, Again, t0), Learning, 0, t0.Add(time.Minute))
	expect(t, "new+hard (avg of 2 steps)", s.Review(Card{}, Hard, t0), Learning, 0, t0.Add(330*time.Second))
	expect(t, "new+good", s.Review(Card{}, Good, t0), Learning, 1, t0.Add(10*time.Minute))
	// Easy graduates: S0(Easy) = 8.2956 → 8 days at 90 % retention.
	expect(t, "new+easy", s.Review(Card{}, Easy, t0), Review, 0, t0.Add(8*day))

	step1 := s.Review(Card{}, Good, t0)
	now := t0.Add(10 * time.Minute)
	expect(t, "step1+again", s.Review(step1, Again, now), Learning, 0, now.Add(time.Minute))
	expect(t, "step1+hard repeats step", s.Review(step1, Hard, now), Learning, 1, now.Add(10*time.Minute))
	g := s.Review(step1, Good, now)
	want := s.intervalDays(newModel(s.Params), g.Stability)
	expect(t, "step1+good graduates", g, Review, 0, now.Add(time.Duration(want)*day))
	if want < 1 {
		t.Errorf("graduation interval %d", want)
	}

	one := noFuzz()
	one.LearningSteps = []time.Duration{10 * time.Minute}
	expect(t, "one step: hard = 1.5x", one.Review(Card{}, Hard, t0), Learning, 0, t0.Add(15*time.Minute))
	expect(t, "one step: good graduates", one.Review(Card{}, Good, t0), Review, 0, t0.Add(2*day))
}

func TestStaleStepIndex(t *testing.T) {
	s := noFuzz()
	c := s.Review(Card{}, Good, t0)
	c.Step = 5 // scheduled earlier with a longer step list
	now := t0.Add(time.Hour)
	if got := s.Review(c, Hard, now); got.State != Review {
		t.Errorf("hard on stale step: %v, want review", got.State)
	}
	expect(t, "again on stale step", s.Review(c, Again, now), Learning, 0, now.Add(time.Minute))
}

func TestNoStepsGraduateImmediately(t *testing.T) {
	s := noFuzz()
	s.LearningSteps, s.RelearningSteps = nil, nil
	c := s.Review(Card{}, Again, t0)
	expect(t, "new+again without steps", c, Review, 0, t0.Add(day)) // S0(Again)=0.212 → 0 → 1 day

	r := s.Review(reviewCard(), Again, t0.Add(12*day))
	if r.State != Review || r.Lapses != 1 || r.Due.Sub(r.LastReview) < day {
		t.Errorf("review+again without relearning steps: %+v", r)
	}
	rl := reviewCard()
	rl.State = Relearning
	if got := s.Review(rl, Again, t0.Add(time.Hour)); got.State != Review {
		t.Errorf("relearning without steps: %v, want review", got.State)
	}
}

func TestReviewTransitions(t *testing.T) {
	s := noFuzz()
	now := t0.Add(12 * day)
	lapse := s.Review(reviewCard(), Again, now)
	expect(t, "review+again", lapse, Relearning, 0, now.Add(10*time.Minute))
	if lapse.Lapses != 1 || lapse.Reps != 4 {
		t.Errorf("lapse counts: lapses %d reps %d, want 1 4", lapse.Lapses, lapse.Reps)
	}
	if lapse.Stability >= reviewCard().Stability {
		t.Errorf("lapse did not lower S: %v", lapse.Stability)
	}
	for _, r := range []Rating{Hard, Good, Easy} {
		c := s.Review(reviewCard(), r, now)
		days := s.intervalDays(newModel(s.Params), c.Stability)
		expect(t, "review+"+r.String(), c, Review, 0, now.Add(time.Duration(days)*day))
		if c.Lapses != 0 {
			t.Errorf("%v counted a lapse", r)
		}
	}
	// Intervals grow with the rating.
	h, g, e := s.Review(reviewCard(), Hard, now), s.Review(reviewCard(), Good, now), s.Review(reviewCard(), Easy, now)
	if !(h.Due.Before(g.Due) && g.Due.Before(e.Due)) {
		t.Errorf("due not ordered hard<good<easy: %v %v %v", h.Due, g.Due, e.Due)
	}

	// Relearning (one 10m step): Hard = 15m, Again = step 0, Good/Easy graduate.
	later := now.Add(10 * time.Minute)
	expect(t, "relearn+hard", s.Review(lapse, Hard, later), Relearning, 0, later.Add(15*time.Minute))
	expect(t, "relearn+again", s.Review(lapse, Again, later), Relearning, 0, later.Add(10*time.Minute))
	for _, r := range []Rating{Good, Easy} {
		c := s.Review(lapse, r, later)
		if c.State != Review || c.Lapses != 1 {
			t.Errorf("relearn+%v: %v lapses %d", r, c.State, c.Lapses)
		}
	}
}

func TestIntervalClamps(t *testing.T) {
	s := noFuzz()
	s.MaxInterval = 5
	big := reviewCard()
	big.Stability = 3000
	now := t0.Add(3000 * day)
	c := s.Review(big, Good, now)
	if got := c.Due.Sub(now); got != 5*day {
		t.Errorf("max interval: due in %v, want 5 days", got)
	}

	s = noFuzz()
	s.RelearningSteps = nil
	weak := reviewCard()
	weak.Stability, weak.Difficulty = 0.3, 9
	c = s.Review(weak, Again, t0.Add(day))
	if got := c.Due.Sub(c.LastReview); got != day {
		t.Errorf("tiny stability: due in %v, want the 1-day floor", got)
	}
}

func TestMemoryClamps(t *testing.T) {
	s := noFuzz()
	huge := reviewCard()
	huge.Stability, huge.Difficulty = 36000, 1
	c := s.Review(huge, Easy, t0.Add(100000*day))
	if c.Stability > 36500 {
		t.Errorf("S = %v exceeds 36500", c.Stability)
	}
	c = Card{}
	now := t0
	for range 30 {
		now = now.Add(day)
		c = s.Review(c, Again, now)
		if c.Difficulty > 10 || c.Stability < 0.001 {
			t.Fatalf("again streak: D %v S %v out of range", c.Difficulty, c.Stability)
		}
	}
	for range 30 {
		now = now.Add(day)
		c = s.Review(c, Easy, now)
		if c.Difficulty < 1 {
			t.Fatalf("easy streak: D %v below 1", c.Difficulty)
		}
	}
}

// Whole days are floor(hours/24): 23h later is still the same day (short-term formula).
func TestElapsedDaysFloor(t *testing.T) {
	s := noFuzz()
	m := newModel(s.Params)
	c := reviewCard()
	same := s.Review(c, Good, t0.Add(23*time.Hour))
	near(t, "same-day S", same.Stability, m.shortTermStability(c.Stability, Good), 1e-12)
	next := s.Review(c, Good, t0.Add(47*time.Hour))
	near(t, "t=1 S", next.Stability, m.recallStability(c.Difficulty, c.Stability, m.retrievability(1, c.Stability), Good), 1e-12)
	if same.Stability == next.Stability {
		t.Error("same-day and next-day reviews gave the same S")
	}
}

func TestRetrievability(t *testing.T) {
	s := noFuzz()
	c := reviewCard()
	near(t, "R(0)", s.Retrievability(c, t0), 1, 1e-12)
	near(t, "R(S)", s.Retrievability(c, t0.Add(12*day)), 0.9, 1e-12)
	near(t, "R(S+23h)", s.Retrievability(c, t0.Add(12*day+23*time.Hour)), 0.9, 1e-12)
	if r := s.Retrievability(c, t0.Add(100*day)); !(r < 0.9 && r > 0) {
		t.Errorf("R(100d) = %v", r)
	}
	if r := s.Retrievability(Card{}, t0); r != 0 {
		t.Errorf("new card R = %v, want 0", r)
	}
	near(t, "R before last review", s.Retrievability(c, t0.Add(-2*day)), 1, 1e-12)
}

func TestPreview(t *testing.T) {
	s := noFuzz()
	p := s.Preview(Card{}, t0)
	want := []string{"1m", "6m", "10m", "8d"}
	for i, c := range p {
		if c != s.Review(Card{}, allRatings[i], t0) {
			t.Errorf("preview[%d] differs from Review", i)
		}
		if got := FormatInterval(c.Due.Sub(t0)); got != want[i] {
			t.Errorf("preview[%d] label %q, want %q", i, got, want[i])
		}
	}
}

// BenchmarkPreviewCard is the study page's four button intervals for a new and a review card.
func BenchmarkPreviewCard(b *testing.B) {
	s := DefaultScheduler()
	review := Card{State: Review, Stability: 12, Difficulty: 5, Due: t0, LastReview: t0.Add(-10 * day), Reps: 4}
	for b.Loop() {
		s.PreviewCard("card-1", Card{}, t0)
		s.PreviewCard("card-1", review, t0)
	}
}
