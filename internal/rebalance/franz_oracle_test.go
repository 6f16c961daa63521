// franz-go (test-only dependency) is the oracle: its group balancers, driven offline with
// synthetic JoinGroup metadata, must meet the same invariants as ours.

package rebalance

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

type ownership map[string]map[string][]int32 // member -> topic -> partitions

// franzBalance runs a franz-go balancer offline, the way a group leader would, from synthetic
// JoinGroup metadata.
func franzBalance(t *testing.T, bal kgo.GroupBalancer, members []string, owned ownership, topics map[string]int32) ownership {
	t.Helper()
	interests := slices.Sorted(maps.Keys(topics))
	var jm []kmsg.JoinGroupResponseMember
	for _, m := range members {
		jm = append(jm, kmsg.JoinGroupResponseMember{MemberID: m, ProtocolMetadata: bal.JoinGroupMetadata(interests, owned[m], 1)})
	}
	mb, _, err := bal.MemberBalancer(jm)
	if err != nil {
		t.Fatal(err)
	}
	var into kgo.IntoSyncAssignment
	if me, ok := mb.(kgo.GroupMemberBalancerOrError); ok {
		if into, err = me.BalanceOrError(topics); err != nil {
			t.Fatal(err)
		}
	} else {
		into = mb.Balance(topics)
	}
	plan, ok := into.(*kgo.BalancePlan)
	if !ok {
		t.Fatal("franz-go returned an unexpected plan type")
	}
	out := ownership{}
	for m, tp := range plan.AsMemberIDMap() {
		out[m] = tp
	}
	for _, m := range members {
		if out[m] == nil {
			out[m] = map[string][]int32{}
		}
	}
	return out
}

func flat(o ownership) map[string]string { // "t-p" -> member
	out := map[string]string{}
	for m, tp := range o {
		for tpc, ps := range tp {
			for _, p := range ps {
				out[fmt.Sprintf("%s-%d", tpc, p)] = m
			}
		}
	}
	return out
}

func fromNames(a map[string][]string) ownership {
	out := ownership{}
	for m, its := range a {
		out[m] = map[string][]int32{}
		for _, it := range its {
			i := strings.LastIndexByte(it, '-')
			p, _ := strconv.Atoi(it[i+1:])
			out[m][it[:i]] = append(out[m][it[:i]], int32(p))
		}
	}
	return out
}

// checkValidBalanced: every partition exactly once, counts within one.
func checkValidBalanced(t *testing.T, who string, o ownership, members []string, topics map[string]int32) {
	t.Helper()
	f := flat(o)
	want := 0
	for _, n := range topics {
		want += int(n)
	}
	n := 0
	for _, tp := range o {
		for _, ps := range tp {
			n += len(ps)
		}
	}
	if len(f) != want || n != want {
		t.Fatalf("%s: %d distinct / %d assigned partitions, want %d", who, len(f), n, want)
	}
	lo, hi := want, 0
	for _, m := range members {
		c := 0
		for _, ps := range o[m] {
			c += len(ps)
		}
		lo, hi = min(lo, c), max(hi, c)
	}
	if hi-lo > 1 {
		t.Fatalf("%s: counts from %d to %d", who, lo, hi)
	}
}

func movedCount(before, after map[string]string) int {
	n := 0
	for it, m := range before {
		if after[it] != m {
			n++
		}
	}
	return n
}

// randomGroup: topics, current members with a balanced random ownership (as a stable group has).
func randomGroup(rng *rand.Rand) (map[string]int32, []string, ownership) {
	topics := map[string]int32{"t1": int32(1 + rng.IntN(24))}
	if rng.IntN(2) == 0 {
		topics["t2"] = int32(1 + rng.IntN(12))
	}
	n := 1 + rng.IntN(6)
	ms := members(n, "c")
	var all []string
	for _, tpc := range slices.Sorted(maps.Keys(topics)) {
		for p := int32(0); p < topics[tpc]; p++ {
			all = append(all, fmt.Sprintf("%s-%d", tpc, p))
		}
	}
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	names := map[string][]string{}
	for i, it := range all {
		names[ms[i%n]] = append(names[ms[i%n]], it)
	}
	return topics, ms, fromNames(names)
}

func TestOracleFranzGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 7))
	for iter := 0; iter < 1000; iter++ {
		topics, ms, owned := randomGroup(rng)
		join := rng.IntN(2) == 0 || len(ms) == 1
		after := append([]string(nil), ms...)
		var ev Event
		if join {
			ev = Event{AtMS: 10_000, Type: "join", Member: fmt.Sprintf("c%d", len(ms)+1)}
			after = append(after, ev.Member)
		} else {
			gone := ms[rng.IntN(len(ms))]
			ev = Event{AtMS: 10_000, Type: "leave", Member: gone}
			after = after[:0]
			for _, m := range ms {
				if m != gone {
					after = append(after, m)
				}
			}
		}
		init := map[string][]string{}
		for m, tp := range owned {
			for tpc, ps := range tp {
				for _, p := range ps {
					init[m] = append(init[m], fmt.Sprintf("%s-%d", tpc, p))
				}
			}
		}
		ti := map[string]int{}
		for k, v := range topics {
			ti[k] = int(v)
		}
		before := flat(owned)
		survivors := ownership{}
		for _, m := range after {
			survivors[m] = owned[m]
		}

		for _, cooperative := range []bool{true, false} {
			desc := fmt.Sprintf("iter %d (%v, join=%v, cooperative=%v)", iter, topics, join, cooperative)
			// franz-go: round 1, then (cooperative) round 2 from what members own after revoking.
			bal := kgo.StickyBalancer()
			if cooperative {
				bal = kgo.CooperativeStickyBalancer()
			}
			f1 := franzBalance(t, bal, after, survivors, topics)
			franzRounds, f := 1, f1
			if cooperative && len(flat(f1)) < len(before) {
				franzRounds++
				f = franzBalance(t, bal, after, f1, topics)
			}
			checkValidBalanced(t, desc+" franz-go", f, after, topics)

			s := Scenario{Kind: "consumer", Protocol: "eager", Assignor: "sticky", Topics: ti, Members: ms,
				InitialAssignment: init, Events: []Event{ev}, DurationMS: 120_000, Seed: int64(iter)}
			if cooperative {
				s.Protocol, s.Assignor = "cooperative", "cooperative-sticky"
			}
			r, err := Run(context.Background(), s.WithDefaults(), CLILimits)
			if err != nil || len(r.InvariantFailures) > 0 {
				t.Fatalf("%s: %v %v", desc, err, r.InvariantFailures)
			}
			ours := fromNames(final(r))
			checkValidBalanced(t, desc+" ours", ours, after, topics)
			if cooperative {
				// No hand-off in the revoking round: round 1 only keeps or hands out free partitions.
				r1 := flat(fromNames(r.Rounds[0].Assignment))
				for it, m := range r1 {
					if prev, ok := flat(survivors)[it]; ok && prev != m {
						t.Fatalf("%s: round 1 hands %s from %s to %s", desc, it, prev, m)
					}
				}
				for it, m := range flat(f1) {
					if prev, ok := flat(survivors)[it]; ok && prev != m {
						t.Fatalf("%s: franz-go round 1 hands %s from %s to %s", desc, it, prev, m)
					}
				}
			}
			wantRounds := 1
			if cooperative && join && franzRounds == 2 {
				wantRounds = 2
			}
			if len(r.Rounds) != wantRounds || franzRounds != wantRounds && !(join && cooperative) {
				t.Fatalf("%s: ours %d rounds, franz-go %d, want %d", desc, len(r.Rounds), franzRounds, wantRounds)
			}
			if !join && len(r.Rounds[0].Revoked) != 0 && cooperative {
				t.Fatalf("%s: a leave must not revoke from survivors: %v", desc, r.Rounds[0].Revoked)
			}
			om, fm := movedCount(before, flat(ours)), movedCount(before, flat(f))
			if om > fm {
				t.Fatalf("%s: we move %d partitions, franz-go %d", desc, om, fm)
			}
		}
	}
}
