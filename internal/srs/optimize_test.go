package srs

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"
)

// fsrsRSBatch is the four-item batch of fsrs-rs's training test (src/training.rs,
// test_loss_and_grad): each item's earlier ratings with the days before each, then the day gap
// and outcome of the answer being predicted.
var fsrsRSBatch = []struct {
	days    []int
	ratings []Rating
	gap     int
	recall  bool
}{
	{[]int{0, 0, 0, 0, 1, 3}, []Rating{1, 3, 1, 4, 3, 2}, 4, true},
	{[]int{0, 0, 0, 1, 3, 6}, []Rating{2, 4, 4, 3, 1, 3}, 11, true},
	{[]int{0, 0, 0, 1, 3, 6}, []Rating{3, 2, 4, 3, 3, 3}, 12, true},
	{[]int{0, 0, 1, 3, 5, 12}, []Rating{4, 4, 3, 3, 3, 4}, 23, false},
}

// batchReviews turns the batch into a review log: one card per item, same-day answers a minute
// apart so that whole-day gaps stay exact.
func batchReviews() []Answer {
	var out []Answer
	base := time.Date(2024, 3, 1, 8, 0, 0, 0, time.UTC)
	for i, it := range fsrsRSBatch {
		id := fmt.Sprintf("card%d", i)
		day := 0
		at := func(k int) time.Time { return base.Add(time.Duration(day)*24*time.Hour + time.Duration(k)*time.Minute) }
		for k, g := range it.ratings {
			day += it.days[k]
			out = append(out, Answer{id, at(k), g})
		}
		day += it.gap
		g := Again
		if it.recall {
			g = Good
		}
		out = append(out, Answer{id, at(len(it.ratings)), g})
	}
	return out
}

func TestLossAndGradientMatchFSRSRS(t *testing.T) {
	l, err := newReviewLog(batchReviews(), false)
	if err != nil {
		t.Fatal(err)
	}
	// Only the four predicted answers are scored: every earlier gap either is 0 (same day) or
	// is part of the item's history, which fsrs-rs does not score in this batch.
	for _, c := range l.cards {
		for i := c.start + 1; i < c.end-1; i++ {
			l.weights[i] = 0
		}
	}
	sum, weight := l.loss(DefaultParams, l.cards)
	if weight != 4 {
		t.Fatalf("scored weight %v, want 4", weight)
	}
	near(t, "summed loss", sum, 4.0466027, 1e-5)
	g := l.gradient(DefaultParams, l.cards, 3)
	want := [21]float64{
		-0.095688485, -0.0051607806, -0.0012249565, 0.007462064, 0.03650761, -0.082112335,
		0.0593964, -2.1474836, 0.57626534, -2.8751316, 0.7154875, -0.028993709, 0.0099172965,
		-0.2189217, -0.0017800558, -0.089381434, 0.299141, 0.068104014, -0.011605468,
		-0.25398168, 0.27700496,
	}
	for i := range g {
		near(t, fmt.Sprintf("dloss/dw%d", i), g[i]*weight, want[i], 1e-4*math.Max(1, math.Abs(want[i])))
	}

	// One Adam step at lr 0.04, then the clip, lands where fsrs-rs's does.
	w := DefaultParams
	for i := range g {
		g[i] *= weight
	}
	var a adam
	a.step(&w, g, 0.04)
	w = ClipParams(w)
	after := [21]float64{
		0.252, 1.3331, 2.3464994, 8.2556, 6.3733, 0.87340003, 2.9794, 0.040999997, 1.8322,
		0.20660001, 0.756, 1.5235, 0.021400042, 0.3029, 1.6882998, 0.64140004, 1.8329, 0.5025,
		0.13119997, 0.1058, 0.1142,
	}
	for i := range w {
		near(t, fmt.Sprintf("w%d after one step", i), w[i], after[i], 1e-5)
	}

	// The regularisation there (batch 512 of 1000, gamma 2) is fsrs-rs's 0.67711145.
	var p float64
	for i := range w {
		d := (w[i] - DefaultParams[i]) / paramStddev[i]
		p += d * d
	}
	near(t, "penalty", p*2*512/1000, 0.67711145, 1e-5)
	var pg [21]float64
	addPenaltyGradient(&pg, w, DefaultParams, 2*512.0/1000)
	near(t, "dpenalty/dw7", pg[7], 5.688889, 1e-4)
	near(t, "dpenalty/dw12", pg[12], -10.113569, 1e-3)
}

// slowLearner forgets more slowly than the defaults (fitrecovery has it and two others).
var slowLearner = [21]float64{1.2, 3.5, 9, 25, 5.2, 0.6, 2.2, 0.01, 2.2, 0.12, 1.2, 1.1, 0.08, 0.35, 1.3,
	0.5, 2.4, 0.4, 0.2, 0.1, 0.35}

func TestFitSmallHistoryKeepsDefaultsButInitialStability(t *testing.T) {
	l := Learner{Memory: slowLearner, Scheduler: DefaultScheduler(), Cards: 30, NewPerDay: 10, Days: 4, Seed: 3}
	res, err := Fit(context.Background(), l.Simulate(), FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scored >= minFitScored {
		t.Fatalf("%d scored answers, want a log below %d", res.Scored, minFitScored)
	}
	for i := 4; i < 21; i++ {
		if res.Params[i] != DefaultParams[i] {
			t.Errorf("w%d = %v with %d scored answers, want the default %v", i, res.Params[i], res.Scored, DefaultParams[i])
		}
	}
}

func TestFitRejectsLogsWithNothingToScore(t *testing.T) {
	at := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC)
	log := []Answer{{"a", at, Good}, {"a", at.Add(time.Hour), Good}, {"b", at, Again}}
	if _, err := Fit(context.Background(), log, FitOptions{}); err != ErrNoHistory {
		t.Errorf("err = %v, want ErrNoHistory", err)
	}
	if _, err := Fit(context.Background(), []Answer{{"a", at, 7}}, FitOptions{}); err == nil {
		t.Error("rating 7 accepted")
	}
}

func TestFitStopsWhenCancelled(t *testing.T) {
	l := Learner{Memory: DefaultParams, Scheduler: DefaultScheduler(), Cards: 300, NewPerDay: 10, Days: 60, Seed: 4}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fit(ctx, l.Simulate(), FitOptions{}); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
