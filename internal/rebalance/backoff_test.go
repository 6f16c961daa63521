package rebalance

import (
	"fmt"
	"testing"
)

// revokingBackoff is the least gap Kafka (3.4+) leaves after the k-th successive revoking round:
// 40 ms, growing fortyfold, capped at scheduled.rebalance.max.delay.ms.
func revokingBackoff(k int, maxDelay int64) int64 {
	b := int64(40)
	for i := 1; i < k && b < maxDelay; i++ {
		b *= 40
	}
	return min(b, maxDelay)
}

// balanced: connectors and tasks each differ by at most one between workers, so the leader
// wants no load-balancing revocation (which ends a run of successive revoking rounds).
func balanced(a map[string][]string, conns map[string]int) bool {
	loC, hiC, loT, hiT := -1, 0, -1, 0
	for _, its := range a {
		c, t := split(its, conns)
		if loC < 0 || c < loC {
			loC = c
		}
		if loT < 0 || t < loT {
			loT = t
		}
		hiC, hiT = max(hiC, c), max(hiT, t)
	}
	return hiC-loC <= 1 && hiT-loT <= 1
}

// Workers keep joining, so round after round wants to revoke for balance. Successive revoking
// rounds must be spaced by the back-off (40 ms, 1.6 s, 64 s, then the max delay), and each must
// follow soon after its back-off ends; a balanced round ends the run and resets the back-off.
func TestConnectSuccessiveRevocationsBackOff(t *testing.T) {
	const maxDelay = 100_000
	conns := map[string]int{"a": 4, "b": 1500}
	s := Scenario{Kind: "connect", Protocol: "incremental", Connectors: conns,
		Members: members(2, "w"), DurationMS: 700_000, Seed: 1}
	s.Config.ScheduledRebalanceMaxDelayMS = cfgp(maxDelay)
	s.Config.HeartbeatIntervalMS = cfgp(250) // short rounds, so the back-off is what spaces them
	for i := range 700 {
		s.Events = append(s.Events, Event{AtMS: 10_000 + int64(i)*300, Type: "join", Member: fmt.Sprintf("j%d", i)})
	}
	// Long after the burst, with the group balanced, a join revokes again without waiting.
	s.Events = append(s.Events, Event{AtMS: 600_000, Type: "join", Member: "late"})
	s = s.WithDefaults()
	r := run(t, s)
	// Rounds can follow each other only as fast as every worker hears of the next one (a
	// heartbeat), revokes and rejoins, so a revocation may come that much after its back-off.
	slack := 2**s.Config.HeartbeatIntervalMS + *s.Config.RevokeMS
	k, longest, held := 0, 0, 0
	var prev Round
	var lateRevoked bool
	for _, rd := range r.Rounds {
		n := 0
		for _, l := range rd.Revoked {
			n += len(l)
		}
		if n == 0 {
			if balanced(rd.Assignment, conns) {
				k = 0
			} else if k > 0 {
				held++
			}
			continue
		}
		if rd.StartMS >= 600_000 {
			lateRevoked = true
			if k > 0 {
				t.Errorf("the late join's revoking round %d follows a run of %d: the back-off was not reset", rd.Generation, k)
			}
			if rd.EndMS > 600_000+slack {
				t.Errorf("the late join revokes at %d ms, want at once", rd.EndMS)
			}
		}
		if k > 0 {
			gap, want := rd.EndMS-prev.EndMS, revokingBackoff(k, maxDelay)
			t.Logf("revoking round %d at %d ms, %d after the previous (back-off %d)", rd.Generation, rd.EndMS, gap, want)
			if gap < want {
				t.Errorf("revoking round %d is %d ms after the previous one, want at least %d", rd.Generation, gap, want)
			}
			if want >= 1_600 && gap > want+slack {
				t.Errorf("revoking round %d is %d ms after the previous one, more than %d past its back-off of %d", rd.Generation, gap, slack, want)
			}
		}
		k++
		longest = max(longest, k)
		prev = rd
	}
	if longest < 5 {
		t.Errorf("want a run of at least 5 successive revoking rounds (every back-off step and the cap), got %d", longest)
	}
	if held == 0 {
		t.Errorf("no round put its revocations off")
	}
	if !lateRevoked {
		t.Errorf("the late join caused no revocation")
	}
	if len(r.InvariantFailures) > 0 {
		t.Errorf("invariants: %v", r.InvariantFailures)
	}
}
