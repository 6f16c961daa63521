package rebalance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzDecode feeds arbitrary bytes to the scenario decoder, as the web API does. Decode must
// never panic and must name the field it refuses; a scenario it accepts must encode to the same
// JSON after a round trip and run under the web limits without an internal error (a short
// budget is fine: ErrBudget is an answer, a recovered panic is a finding).
func FuzzDecode(f *testing.F) {
	for _, p := range Presets() {
		sc, _ := Preset(p.Name)
		b, err := json.Marshal(sc)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Decode(bytes.NewReader(data), WebLimits)
		if err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field == "" || fe.Msg == "" {
				t.Fatalf("decode error does not name a field: %v", err)
			}
			return
		}
		again, err := json.Marshal(sc)
		if err != nil {
			t.Fatal(err)
		}
		sc2, err := Decode(bytes.NewReader(again), WebLimits)
		if err != nil {
			t.Fatalf("a decoded scenario does not decode again: %v\n%s", err, again)
		}
		// Compared as JSON, the web app's cache key: an empty map and no map are the same scenario.
		if again2, _ := json.Marshal(sc2); !bytes.Equal(again, again2) {
			t.Fatalf("round trip changed the scenario:\n%s\n%s", again, again2)
		}
		lim := WebLimits
		lim.MaxSteps = 2_000_000
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		if _, err := Run(ctx, sc, lim); err != nil && !errors.Is(err, ErrBudget) {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("run: %v\n%s", err, data)
			}
			t.Fatalf("a validated scenario failed to run: %v\n%s", err, data)
		}
	})
}
