package rebalance

import (
	"context"
	"os"
	"testing"
)

// TestProfBig runs part of the big rolling restart for profiling: BIG=cooperative go test -run ProfBig -cpuprofile ...
func TestProfBig(t *testing.T) {
	if os.Getenv("BIG") == "" {
		t.Skip()
	}
	s := bigRolling(os.Getenv("BIG"))
	if os.Getenv("FULL") == "" {
		s.DurationMS = 10_000 + 100*30_000
	}
	r, err := Run(context.Background(), s, CLILimits)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Metrics, r.Truncated)
}
