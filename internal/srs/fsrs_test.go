package srs

import (
	"math"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 5, 9, 30, 0, 0, time.UTC)

func noFuzz() Scheduler {
	s := DefaultScheduler()
	s.Fuzz = false
	return s
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.8f, want %.8f (±%g)", what, got, want, tol)
	}
}

func TestReferenceVector(t *testing.T) {
	s := noFuzz()
	ratings := []Rating{Again, Good, Good, Good, Good, Good}
	gaps := []int{0, 0, 1, 3, 8, 21}
	var c Card
	now := t0
	for i, r := range ratings {
		now = now.Add(time.Duration(gaps[i]) * day)
		c = s.Review(c, r, now)
	}
	near(t, "S", c.Stability, 53.62691, 1e-4)
	near(t, "D", c.Difficulty, 6.3574867, 1e-4)
	if c.Reps != 6 || c.State != Review {
		t.Errorf("after vector: reps %d state %v, want 6 review", c.Reps, c.State)
	}
}

func TestFirstRating(t *testing.T) {
	s := noFuzz()
	wantD := []float64{6.4133, 5.11217071, 2.11810397, 1}
	for i, r := range allRatings {
		c := s.Review(Card{}, r, t0)
		near(t, r.String()+" D0", c.Difficulty, wantD[i], 1e-6)
		near(t, r.String()+" S0", c.Stability, DefaultParams[i], 1e-12)
		if c.Reps != 1 || !c.LastReview.Equal(t0) {
			t.Errorf("%v: reps %d last %v", r, c.Reps, c.LastReview)
		}
	}
}

func TestFactor(t *testing.T) {
	near(t, "FACTOR", newModel(DefaultParams).factor, 0.9803464944134797, 1e-12)
}

func TestZeroCardIsNew(t *testing.T) {
	s := noFuzz()
	var zero Card
	if zero.State != New || zero.State.String() != "new" {
		t.Fatalf("zero card state %v", zero.State)
	}
	c := s.Review(zero, Good, t0)
	if c.State != Learning || c.Step != 1 || !c.Due.Equal(t0.Add(10*time.Minute)) {
		t.Errorf("zero card + Good: %+v, want learning step 1 due in 10m", c)
	}
	// A card claiming Review but with no stability has no usable memory state.
	broken := s.Review(Card{State: Review}, Good, t0)
	near(t, "broken S", broken.Stability, DefaultParams[2], 1e-12)
}

func TestInvalidRatingLeavesCardUnchanged(t *testing.T) {
	s := noFuzz()
	c := s.Review(Card{}, Good, t0)
	for _, r := range []Rating{0, 5, -1} {
		if r.Valid() {
			t.Errorf("%d reported valid", r)
		}
		if got := s.Review(c, r, t0.Add(day)); got != c {
			t.Errorf("rating %d changed the card: %+v", r, got)
		}
	}
}

func TestStrings(t *testing.T) {
	want := map[Rating]string{Again: "again", Hard: "hard", Good: "good", Easy: "easy"}
	for r, w := range want {
		if r.String() != w || !r.Valid() {
			t.Errorf("%d: %q valid=%v", int(r), r.String(), r.Valid())
		}
	}
	states := map[State]string{New: "new", Learning: "learning", Review: "review", Relearning: "relearning"}
	for st, w := range states {
		if st.String() != w {
			t.Errorf("%d: %q", int(st), st.String())
		}
	}
}
