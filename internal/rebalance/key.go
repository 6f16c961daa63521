package rebalance

import "encoding/json"

// Key is a canonical form of the scenario: equal for scenarios that run identically, so callers
// can cache or share runs by it. Defaults are filled first, and encoding/json writes map keys
// sorted.
func (s Scenario) Key() (string, error) {
	b, err := json.Marshal(s.WithDefaults())
	return string(b), err
}
