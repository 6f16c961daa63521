package fitrecovery_test

import (
	"context"
	"os"
	"testing"

	"github.com/rehearse/rehearse/internal/srs"
)

// learners have memories unlike the defaults: slower or faster forgetting, a flatter or
// steeper curve, harsher lapses.
var learners = []struct {
	name   string
	memory [21]float64
}{
	{"slow", [21]float64{1.2, 3.5, 9, 25, 5.2, 0.6, 2.2, 0.01, 2.2, 0.12, 1.2, 1.1, 0.08, 0.35, 1.3,
		0.5, 2.4, 0.4, 0.2, 0.1, 0.35}},
	{"fast", [21]float64{0.05, 0.3, 0.9, 3, 7.5, 1.1, 3.6, 0.02, 1.2, 0.3, 0.6, 2.2, 0.05, 0.2, 2.0,
		0.7, 1.5, 0.7, 0.05, 0.05, 0.12}},
	{"steep", [21]float64{0.5, 2, 5, 15, 6, 1.2, 1.5, 0.05, 1.5, 0.25, 1.5, 1.8, 0.1, 0.4, 1, 0.4, 3,
		0.3, 0.3, 0.2, 0.7}},
}

// TestFitRecoversSyntheticLearners fits one log of each learner and scores the fit on a second
// log of the same learner it did not see. The bar (within 0.5 % of the true
// parameters' loss, at least 80 % of the gap from the defaults) needs a year of history, which
// takes a while; REHEARSE_FSRS_FULL=1 runs that size. The default size is a third of it, where
// the statistical noise of a 21-weight fit alone is about 0.5 %, so it allows 1.5 %.
func TestFitRecoversSyntheticLearners(t *testing.T) {
	size := srs.Learner{Cards: 1500, NewPerDay: 15, Days: 240}
	tolerance := 0.015
	if os.Getenv("REHEARSE_FSRS_FULL") != "" {
		size = srs.Learner{Cards: 6000, NewPerDay: 25, Days: 365}
		tolerance = 0.005
	}
	for _, lr := range learners {
		t.Run(lr.name, func(t *testing.T) {
			train := size
			train.Memory, train.Scheduler, train.Seed = lr.memory, srs.DefaultScheduler(), 1
			test := train
			test.Seed = 2
			trainLog, testLog := train.Simulate(), test.Simulate()
			res, err := srs.Fit(context.Background(), trainLog, srs.FitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			lTrue, n, _ := srs.LogLoss(lr.memory, testLog)
			lDef, _, _ := srs.LogLoss(srs.DefaultParams, testLog)
			lFit, _, _ := srs.LogLoss(res.Params, testLog)
			t.Logf("%d reviews (%d scored) to fit, %d scored to test: true %.5f default %.5f fitted %.5f (%.2f%% above true, %.1f%% of the gap)",
				len(trainLog), res.Scored, n, lTrue, lDef, lFit, 100*(lFit/lTrue-1), 100*(lDef-lFit)/(lDef-lTrue))
			if lFit > lTrue*(1+tolerance) {
				t.Errorf("fitted loss %.5f more than %.1f%% above the true parameters' %.5f", lFit, 100*tolerance, lTrue)
			}
			if (lDef - lFit) < 0.8*(lDef-lTrue) {
				t.Errorf("fit captures %.1f%% of the gap from the defaults, want at least 80%%", 100*(lDef-lFit)/(lDef-lTrue))
			}
			if res.LossAfter >= res.LossBefore {
				t.Errorf("fit's own loss %.5f not below the defaults' %.5f", res.LossAfter, res.LossBefore)
			}
		})
	}
}
