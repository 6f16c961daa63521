package main

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// Issue 14: three eager consumers, m4 joins; with revoke 0 ms and rpc 1 ms the group stops
// for a few milliseconds, as real clients on loopback do (3-9 ms), not for a random share of a
// heartbeat, because every member's heartbeat timer restarted at the same JoinGroup response.
func TestSimEagerJoinStopsTheWorldBriefly(t *testing.T) {
	for seed := 1; seed <= 20; seed++ {
		in := fmt.Sprintf(`{"kind":"consumer","protocol":"eager","topics":{"orders":12},"members":["m1","m2","m3"],
			"config":{"revoke_ms":0,"rpc_ms":1},"events":[{"at_ms":10000,"type":"join","member":"m4"}],
			"duration_ms":60000,"seed":%d}`, seed)
		out, errOut, err := runSim(t, in)
		if err != nil {
			t.Fatalf("seed %d: %v %s", seed, err, errOut)
		}
		var r rebalance.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Rounds) != 1 || !r.Rounds[0].StopTheWorld || r.Rounds[0].Protocol != "eager" {
			t.Fatalf("seed %d: want one eager round, got %+v", seed, r.Rounds)
		}
		// The stop: from revocation to the new assignment (start_ms, the cost of starting work
		// afterwards, is not part of the rebalance).
		var stop int64
		for _, tl := range r.Timeline {
			for _, sg := range tl.Segments {
				if sg.State == rebalance.StateRevoking || sg.State == rebalance.StateUnowned {
					stop = max(stop, sg.ToMS-sg.FromMS)
				}
			}
		}
		if stop <= 0 || stop >= 50 {
			t.Errorf("seed %d: stop-the-world %d ms, want under 50", seed, stop)
		}
	}
}
