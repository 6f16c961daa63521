package server

import (
	"os"
	"strings"
	"testing"
)

// The what-if form re-runs a card's figure with the learner's numbers, from the URL alone.
func TestSimWhatIfChangesTheFigure(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	_, plain := e.get(e.client(), "/cards/sim-join")
	cell := `#sim-metrics tr[data-metric=downtime] td[data-variant=eager]`
	base, ok := plain.Find(cell).Attr("data-value")
	if !ok || base == "" {
		t.Fatalf("downtime cell has no data-value: %q", plain.Find("#sim-metrics").Text())
	}
	if v, _ := plain.Find("#wi-members").Attr("value"); v != "3" {
		t.Errorf("members field shows %q, want the card's 3", v)
	}
	if plain.Find("#whatif-reset").Length() != 0 {
		t.Error("a reset link on the card's own numbers")
	}
	resp, asked := e.get(e.client(), "/cards/sim-join?members=6&processing_ms=2000&revoke_ms=200&start_ms=3000")
	if resp.StatusCode != 200 {
		t.Fatalf("what-if: status %d", resp.StatusCode)
	}
	got, _ := asked.Find(cell).Attr("data-value")
	if got == base {
		t.Errorf("the what-if left eager's downtime at %s", got)
	}
	if v, _ := asked.Find("#wi-processing_ms").Attr("value"); v != "2000" {
		t.Errorf("processing field shows %q, want 2000", v)
	}
	if !strings.Contains(asked.Find("#sim-regime").Text(), "6 consumers") {
		t.Errorf("regime sentence %q does not name the 6 consumers", asked.Find("#sim-regime").Text())
	}
	if asked.Find("#whatif-reset").Length() != 1 {
		t.Error("no way back to the card's numbers")
	}
	// A refused value re-renders the form with a message, and the card's own figure.
	for _, q := range []string{"processing_ms=abc", "members=201", "processing_ms=300001", "session_timeout_ms=100"} {
		_, bad := e.get(e.client(), "/cards/sim-join?"+q)
		if bad.Find("#whatif-error").Length() != 1 {
			t.Errorf("%s: no message", q)
		}
		if v, _ := bad.Find(cell).Attr("data-value"); v != base {
			t.Errorf("%s: figure ran anyway (downtime %s, card's %s)", q, v, base)
		}
	}
	_, bad := e.get(e.client(), "/cards/sim-join?members=201")
	if v, _ := bad.Find("#wi-members").Attr("aria-invalid"); v != "true" {
		t.Errorf("members=201: field not marked invalid (%q)", v)
	}
}
