package srs

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestParamsFromSlice(t *testing.T) {
	p, err := ParamsFromSlice(DefaultParams[:])
	if err != nil || p != DefaultParams {
		t.Fatalf("21 weights: %v %v", p, err)
	}
	fsrs5 := []float64{0.40255, 1.18385, 3.173, 15.69105, 7.1949, 0.5345, 1.4604, 0.0046, 1.54575,
		0.1192, 1.01925, 1.9395, 0.11, 0.29605, 2.2698, 0.2315, 2.9898, 0.51655, 0.6621}
	p, err = ParamsFromSlice(fsrs5)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range fsrs5 {
		if p[i] != w {
			t.Errorf("w%d = %v, want %v", i, p[i], w)
		}
	}
	if p[19] != 0 || p[20] != 0.5 {
		t.Errorf("migrated w19, w20 = %v, %v; want 0, 0.5", p[19], p[20])
	}
	// w20 = 0.5 is FSRS-5's fixed curve: FACTOR = 19/81.
	near(t, "FSRS-5 factor", newModel(p).factor, 19.0/81, 1e-12)

	for _, n := range []int{0, 17, 20, 22} {
		if _, err := ParamsFromSlice(make([]float64, n)); err == nil || !strings.Contains(err.Error(), "got") {
			t.Errorf("%d weights: err %v", n, err)
		}
	}
	bad := append([]float64(nil), DefaultParams[:]...)
	bad[9] = math.NaN()
	if _, err := ParamsFromSlice(bad); err == nil || !strings.Contains(err.Error(), "w9") {
		t.Errorf("NaN weight: err %v", err)
	}
	bad[9], bad[20] = 0.1666, 0
	if _, err := ParamsFromSlice(bad); err == nil || !strings.Contains(err.Error(), "w20") {
		t.Errorf("zero decay: err %v", err)
	}
}

func TestValidate(t *testing.T) {
	if err := DefaultScheduler().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	cases := map[string]func(*Scheduler){
		"retention":  func(s *Scheduler) { s.DesiredRetention = 1 },
		"retention ": func(s *Scheduler) { s.DesiredRetention = 0 },
		"retention=": func(s *Scheduler) { s.DesiredRetention = math.NaN() },
		"learning":   func(s *Scheduler) { s.LearningSteps = []time.Duration{time.Minute, 0} },
		"relearning": func(s *Scheduler) { s.RelearningSteps = []time.Duration{-time.Minute} },
		"maximum":    func(s *Scheduler) { s.MaxInterval = 0 },
		"w0":         func(s *Scheduler) { s.Params[0] = 0 },
	}
	for word, mutate := range cases {
		s := DefaultScheduler()
		mutate(&s)
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), strings.TrimRight(word, " =")) {
			t.Errorf("%s: err %v", word, err)
		}
	}
	// Steps may be empty: cards then graduate at once.
	s := DefaultScheduler()
	s.LearningSteps, s.RelearningSteps = nil, nil
	if err := s.Validate(); err != nil {
		t.Errorf("empty steps: %v", err)
	}
}

// A scheduler that fails Validate must still not panic and must give sane due times.
func TestReviewWithBadSettings(t *testing.T) {
	for _, s := range []Scheduler{
		{},
		{DesiredRetention: math.NaN(), MaxInterval: -3, Params: DefaultParams, Fuzz: true},
		{DesiredRetention: 1e-9, MaxInterval: math.MaxInt, Params: DefaultParams, Fuzz: true},
	} {
		c := Card{}
		now := t0
		for i := range 8 {
			now = now.Add(day)
			c = s.Review(c, allRatings[i%4], now)
			if c.Due.Before(now) {
				t.Fatalf("%+v: due %v before now", s, c.Due)
			}
		}
	}
}
