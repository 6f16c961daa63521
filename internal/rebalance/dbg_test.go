package rebalance

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestDbg(t *testing.T) {
	in := os.Getenv("SC")
	if in == "" {
		t.Skip()
	}
	s, err := Decode(strings.NewReader(in), CLILimits)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), s, CLILimits)
	if err != nil {
		t.Fatal(err)
	}
	for _, rd := range r.Rounds {
		fmt.Printf("gen %d %q %d-%d a=%v rev=%v add=%v\n", rd.Generation, rd.Trigger, rd.StartMS, rd.EndMS, rd.Assignment, rd.Revoked, rd.Added)
	}
	for _, e := range r.Events {
		fmt.Println(e)
	}
	fmt.Println(r.InvariantFailures)
}
