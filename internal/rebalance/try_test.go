package rebalance

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestTry(t *testing.T) {
	name := os.Getenv("P")
	if name == "" {
		t.Skip()
	}
	s, _ := Preset(name)
	if l := os.Getenv("V"); l != "" {
		s, _ = Variant(s, l)
	}
	r, err := Run(context.Background(), s, CLILimits)
	if err != nil {
		t.Fatal(err)
	}
	for _, rd := range r.Rounds {
		fmt.Printf("gen %d %q %d-%d stw=%v rev=%v add=%v parked=%v\n", rd.Generation, rd.Trigger, rd.StartMS, rd.EndMS, rd.StopTheWorld, rd.Revoked, rd.Added, rd.Parked)
	}
	fmt.Printf("%+v\n%v\n", r.Metrics, r.InvariantFailures)
	for _, tl := range r.Timeline[:3] {
		fmt.Println(tl.Item, tl.Segments)
	}
}
