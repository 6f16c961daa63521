package views

import (
	"context"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/rebalance"
)

func runPreset(t *testing.T, name, label string) (rebalance.Scenario, *rebalance.Result) {
	t.Helper()
	sc, _ := rebalance.Preset(name)
	sc, err := rebalance.Variant(sc, label)
	if err != nil {
		t.Fatal(err)
	}
	r, err := rebalance.Run(context.Background(), sc, rebalance.CLILimits)
	if err != nil {
		t.Fatal(err)
	}
	return sc, r
}

// An eager SyncGroup hands out the new assignment: it never "revokes" (that happened before
// the JoinGroup), and a member that gets its own partitions back is told so.
func TestEagerSyncNarration(t *testing.T) {
	_, r := runPreset(t, "consumer-join", "eager")
	var lines []string
	for _, st := range BuildSteps("eager", r, Episodes(r)) {
		for _, rd := range st.Rounds {
			lines = append(lines, rd.Lines...)
		}
	}
	all := strings.Join(lines, "\n")
	if strings.Contains(all, "SyncGroup to m1: revoke") {
		t.Errorf("eager SyncGroup narrated as a revocation:\n%s", all)
	}
	if !strings.Contains(all, "SyncGroup to m1: assign 3 (orders-0, orders-1, orders-2), all of them its own before the round.") {
		t.Errorf("m1's SyncGroup does not say it gets its three back:\n%s", all)
	}
}

func TestHeadlineAndRegime(t *testing.T) {
	esc, e := runPreset(t, "consumer-join", "eager")
	csc, c := runPreset(t, "consumer-join", "cooperative")
	h := Headline("consumer", []SimVariant{{Label: "eager", Result: e}, {Label: "cooperative", Result: c}})
	if !strings.HasPrefix(h, "cooperative: 3 of 12 partitions paused") || !strings.Contains(h, "eager: all 12 partitions paused") {
		t.Errorf("headline %q", h)
	}
	reg := Regime([]rebalance.Scenario{esc, csc}, []string{"eager", "cooperative"})
	for _, want := range []string{"3 consumers, 12 partitions", "each poll brings 1 s of work", "a revocation commits for 200 ms", "a new owner warms up for 1 s", "heartbeat 3 s"} {
		if !strings.Contains(reg, want) {
			t.Errorf("regime %q lacks %q", reg, want)
		}
	}
	ksc, _ := runPreset(t, "consumer-join", "consumer")
	if reg := Regime([]rebalance.Scenario{esc, ksc}, []string{"eager", "consumer"}); !strings.Contains(reg, "heartbeat 3 s (5 s under consumer)") {
		t.Errorf("regime %q does not give KIP-848's heartbeat", reg)
	}
}

// Why never claims a protocol pauses fewer items when it pauses as many.
func TestWhyCountsOnlyFewer(t *testing.T) {
	_, e := runPreset(t, "consumer-rolling-restart", "eager")
	_, k := runPreset(t, "consumer-rolling-restart", "consumer")
	for _, w := range Why([]SimVariant{{Label: "eager", Result: e}, {Label: "consumer", Result: k}}) {
		if strings.Contains(w, "only 12 of 12") {
			t.Errorf("why: %q", w)
		}
	}
}
