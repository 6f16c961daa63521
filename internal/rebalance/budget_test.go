package rebalance

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// attack is close to issue 12's worst web scenario: 200 members, 5,000 partitions, tiny timeouts
// and eight rolling restarts 10 ms apart. Before the budgets a run of its kind recorded a
// result of hundreds of megabytes.
func attack(interval int64) Scenario {
	s := Scenario{Kind: "consumer", Protocol: "eager", Topics: map[string]int{"t": 5000}, Members: members(200, "m"),
		Config:     Config{SessionTimeoutMS: i64(2), HeartbeatIntervalMS: i64(1)},
		DurationMS: 2 * 3600 * 1000, Seed: 1}
	for k := range 8 {
		s.Events = append(s.Events, Event{AtMS: int64(1000 + 10*k), Type: "rolling_restart", IntervalMS: interval, DownMS: 10_000})
	}
	return s.WithDefaults()
}

func TestWebBudgetsRefuseHugeRuns(t *testing.T) {
	for _, iv := range []int64{100, 1000, 30_000} {
		sc := attack(iv)
		if err := sc.Validate(WebLimits); err != nil {
			t.Fatalf("the attack must pass validation to test the budget: %v", err)
		}
		_, err := Run(context.Background(), sc, WebLimits)
		if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), "use fewer") {
			t.Errorf("interval %d: err = %v, want ErrBudget saying what to shrink", iv, err)
		}
		// The CLI has no such budgets: the same run completes (truncated past its recording cap).
		if _, err := Run(context.Background(), sc, CLILimits); err != nil {
			t.Errorf("interval %d on the CLI: %v", iv, err)
		}
	}
}

func TestEachBudgetStopsTheRun(t *testing.T) {
	sc := attack(10)
	for _, c := range []struct {
		name string
		lim  func(*Limits)
		want string
	}{
		{"steps", func(l *Limits) { l.MaxSteps = 1000 }, "more than 1000 simulation steps"},
		{"segments", func(l *Limits) { l.MaxSegments = 1000 }, "more than 1000 timeline segments"},
		{"rounds", func(l *Limits) { l.MaxRounds = 2 }, "more than 2 rounds"},
		{"round items", func(l *Limits) { l.MaxRoundItems = 6000 }, "more than 6000 item names"},
	} {
		lim := CLILimits
		c.lim(&lim)
		_, err := Run(context.Background(), sc, lim)
		if !errors.Is(err, ErrBudget) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrBudget with %q", c.name, err, c.want)
		}
		// Counted, not timed: the same budget fails the same way every time.
		if _, err2 := Run(context.Background(), sc, lim); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%s: second run %v, first %v", c.name, err2, err)
		}
	}
}

// Within the web budgets the biggest result stays well under 25 MB of JSON.
func TestWebResultSizeBounded(t *testing.T) {
	worst := 0
	for _, iv := range []int64{1, 10, 30} {
		for _, proto := range []string{"eager", "cooperative", "consumer"} {
			sc := attack(iv)
			sc.Protocol, sc.Assignor = proto, ""
			sc = sc.WithDefaults()
			r, err := Run(context.Background(), sc, WebLimits)
			if errors.Is(err, ErrBudget) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(r)
			worst = max(worst, len(b))
		}
	}
	if worst == 0 || worst > 25<<20 {
		t.Errorf("largest accepted web result %d bytes, want between 1 and 25 MB", worst)
	}
	t.Logf("largest accepted web result: %d bytes", worst)
}
