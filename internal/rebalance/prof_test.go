package rebalance

import (
	"context"
	"os"
	"testing"
)

func TestProfBig(t *testing.T) {
	if os.Getenv("BIG") == "" {
		t.Skip()
	}
	s := bigRolling(os.Getenv("BIG"))
	s.Members = s.Members[:100]
	s.DurationMS = 10_000 + 100*30_000 + 60_000
	r, err := Run(context.Background(), s, CLILimits)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(r.Metrics, r.Truncated)
}
