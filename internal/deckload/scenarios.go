// Package deckload loads the deck a server runs: the card files (embedded or a --content
// directory) with the cards edited in the app laid over them, validated with every check a
// deck gets, and held so a reload swaps it in only when it is valid.
package deckload

import (
	"fmt"
	"maps"
	"math"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/rebalance"
)

// CardScenarios builds a card simulation's scenarios, one per compare label. It accepts one
// shorthand on top of the engine's overrides: "members" as a count, expanded to the preset's
// naming (m1…mN for consumers, w1…wN for Connect workers), as `rehearse sim --members` does.
func CardScenarios(sim *deck.Simulation) ([]rebalance.Scenario, error) {
	over := sim.Overrides
	if n, ok := count(over["members"]); ok {
		base, found := rebalance.Preset(sim.Preset)
		if !found {
			return nil, fmt.Errorf("unknown preset %q", sim.Preset)
		}
		if n < 0 || n > rebalance.CLILimits.MaxMembers {
			return nil, fmt.Errorf("overrides.members: must be between 0 and %d", rebalance.CLILimits.MaxMembers)
		}
		prefix := "m"
		if base.Kind == "connect" {
			prefix = "w"
		}
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("%s%d", prefix, i+1)
		}
		over = maps.Clone(over)
		over["members"] = names
	}
	return rebalance.CardScenarios(sim.Preset, sim.Compare, over)
}

// count reads a whole number decoded from YAML or JSON.
func count(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case uint64:
		return int(min(n, math.MaxInt32)), true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) < math.MaxInt32 {
			return int(n), true
		}
	}
	return 0, false
}
