package views

import (
	"context"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/rebalance"
)

func run(t *testing.T, preset, label string) *rebalance.Result {
	t.Helper()
	base, ok := rebalance.Preset(preset)
	if !ok {
		t.Fatalf("no preset %s", preset)
	}
	sc, err := rebalance.Variant(base, label)
	if err != nil {
		t.Fatal(err)
	}
	r, err := rebalance.Run(context.Background(), sc, rebalance.CardLimits)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A cooperative join is one episode of two rounds, numbered 1 and 2 whatever Kafka's
// generations are; a rolling restart is one episode per leave and per return.
func TestEpisodesAndRoundNumbers(t *testing.T) {
	r := run(t, "consumer-join", "cooperative")
	eps := Episodes(r)
	if len(eps) != 1 || len(eps[0].Rounds) != 2 || eps[0].Trigger != "m4 joins" {
		t.Fatalf("episodes = %+v", eps)
	}
	if r.Rounds[0].Generation == 1 {
		t.Fatal("test assumes generations do not start at 1")
	}
	names := roundNames(r, eps)
	if strings.Join(names, ",") != "round 1,round 2" {
		t.Errorf("round names = %v", names)
	}
	// The episode runs from the join to the last moved partition processing again.
	last := int64(0)
	for _, it := range r.Timeline {
		for _, s := range it.Segments {
			if s.State != rebalance.StateProcessing {
				last = max(last, s.ToMS)
			}
		}
	}
	if eps[0].FromMS != r.Events[0].AtMS || eps[0].ToMS != last {
		t.Errorf("episode %d..%d, want %d..%d", eps[0].FromMS, eps[0].ToMS, r.Events[0].AtMS, last)
	}

	roll := run(t, "consumer-rolling-restart", "eager")
	eps = Episodes(roll)
	if len(eps) != 8 {
		t.Fatalf("rolling restart of 4: %d episodes, want 8 (a leave and a return each)", len(eps))
	}
	names = roundNames(roll, eps)
	if names[0] != "episode 1, round 1" || names[len(names)-1] != "episode 8, round 1" {
		t.Errorf("names = %v", names)
	}
	picked := closeupEpisodes(eps)
	if len(picked) != MaxCloseups || picked[0].N != 1 || picked[len(picked)-1].N != 8 {
		t.Errorf("close-ups for episodes %v, want the first ones and the last", picked)
	}
}

// An event that disturbs nothing (a static member's quick restart rebalances nothing, but
// its partitions still pause) is an episode only because of the pause.
func TestEpisodesNeedAPauseOrARound(t *testing.T) {
	r := &rebalance.Result{DurationMS: 1000, Events: []rebalance.EventMark{{AtMS: 100, Type: "slow_poll", Member: "m1"}},
		Timeline: []rebalance.ItemTimeline{{Item: "p0", Segments: []rebalance.Segment{{FromMS: 0, ToMS: 1000, State: rebalance.StateProcessing, Owner: "m1"}}}}}
	if eps := Episodes(r); len(eps) != 0 {
		t.Errorf("an event without effect made episodes %+v", eps)
	}
}

// The why-sentence appears exactly when the incremental variant looks worse on a metric.
func TestWhyExplainsCounterIntuitiveComparisons(t *testing.T) {
	eager, coop := run(t, "consumer-join", "eager"), run(t, "consumer-join", "cooperative")
	vs := []SimVariant{{Label: "eager", Result: eager}, {Label: "cooperative", Result: coop}}
	why := strings.Join(Why(vs), "\n")
	if coop.Metrics.Rebalances > eager.Metrics.Rebalances && !strings.Contains(why, "count more rebalances (2 against 1)") {
		t.Errorf("no rebalance-count explanation: %q", why)
	}
	if coop.Metrics.MaxPauseMS > eager.Metrics.MaxPauseMS && !strings.Contains(why, "only 3 of 12 items pause") {
		t.Errorf("no pause explanation: %q", why)
	}
	if w := Why(vs[:1]); len(w) != 0 {
		t.Errorf("one variant, nothing to compare, got %q", w)
	}
}
