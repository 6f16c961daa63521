package rebalance

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Per-member assignor lists and the classic coordinator's protocol vote, as Kafka does them:
//   - a consumer runs the COOPERATIVE rebalance protocol only when every assignor in its list
//     supports it (ConsumerCoordinator takes the highest protocol all its assignors support);
//     of the classic assignors only cooperative-sticky does, so [cooperative-sticky, range]
//     runs EAGER;
//   - the coordinator selects the assignor by a vote: each member votes for the first of its
//     assignors that every member supports, and the most votes win (ClassicGroup.selectProtocol;
//     Kafka breaks a tie by hash-map order, this simulator by name);
//   - a JoinGroup naming no assignor that every current member supports is refused with
//     INCONSISTENT_GROUP_PROTOCOL (ClassicGroup.supportsProtocols), and the client fails.

// classicAssignors are the assignors a classic consumer may list.
var classicAssignors = []string{"range", "roundrobin", "sticky", "cooperative-sticky"}

// checkAssignorList validates one member's list; field names it in errors.
func (s Scenario) checkAssignorList(field string, list []string) error {
	if s.Kind != "consumer" || (s.Protocol != "eager" && s.Protocol != "cooperative") {
		return ferr(field, "assignor lists apply to the classic consumer protocols (eager, cooperative), not kind %s protocol %s", s.Kind, s.Protocol)
	}
	if len(list) == 0 {
		return ferr(field, "must name at least one assignor (%s)", strings.Join(classicAssignors, ", "))
	}
	for i, a := range list {
		if !slices.Contains(classicAssignors, a) {
			return ferr(fmt.Sprintf("%s[%d]", field, i), "unknown assignor %q for classic consumers (one of %s)", a, strings.Join(classicAssignors, ", "))
		}
		if slices.Contains(list[:i], a) {
			return ferr(fmt.Sprintf("%s[%d]", field, i), "%q is listed twice", a)
		}
	}
	return nil
}

// validateAssignors checks the scenario's per-member lists; all holds every member that ever
// exists (members and joins).
func (s Scenario) validateAssignors(all map[string]bool) error {
	for _, m := range slices.Sorted(maps.Keys(s.Assignors)) {
		if !all[m] {
			return ferr("assignors."+m, "no member %q in members or join events", m)
		}
		if err := s.checkAssignorList("assignors."+m, s.Assignors[m]); err != nil {
			return err
		}
	}
	return nil
}

// parseAssignors turns a validated list into assignors.
func parseAssignors(list []string) []assignor {
	out := make([]assignor, len(list))
	for i, a := range list {
		out[i] = assignorNames[a]
	}
	return out
}

// internAssignors is parseAssignors with one shared slice per distinct list (no list is ever
// modified), so members' lists compare mostly by address.
func (s *sim) internAssignors(list []string) []assignor {
	k := strings.Join(list, ",")
	if l, ok := s.assignorLists[k]; ok {
		return l
	}
	if s.assignorLists == nil {
		s.assignorLists = map[string][]assignor{}
	}
	l := parseAssignors(list)
	s.assignorLists[k] = l
	return l
}

// cooperativeList reports whether a member with this list runs the COOPERATIVE protocol.
func cooperativeList(list []assignor) bool {
	for _, a := range list {
		if a != asCoopSticky {
			return false
		}
	}
	return len(list) > 0
}

// supportedByAll is the set of assignors every entry lists, skipping except.
// It is a bit per assignor (assignors are small numbers), with any false when no entry counted.
func supportedByAll(es []*entry, except *entry) (common uint64, any bool) {
	var last []assignor // lists are interned: the mask of the last one is usually the next one's
	var mask uint64
	for _, e := range es {
		if e == except || e.removed {
			continue
		}
		if l := e.assignors; len(l) != len(last) || len(l) > 0 && &l[0] != &last[0] {
			mask, last = 0, l
			for _, a := range l {
				mask |= 1 << a
			}
		}
		if !any {
			common, any = mask, true
		} else {
			common &= mask
		}
	}
	return common, any
}

// consistent reports whether a member joining with list shares an assignor with every other
// member of the group (an empty group accepts any list).
func consistent(es []*entry, self *entry, list []assignor) bool {
	common, any := supportedByAll(es, self)
	if !any {
		return true
	}
	for _, a := range list {
		if common&(1<<a) != 0 {
			return true
		}
	}
	return false
}

// vote selects the group's assignor over the members joining this round.
func vote(ws []*entry) assignor {
	if len(ws) > 0 && sameLists(ws) {
		// Every member lists the same: each votes for the first (the common case, spared
		// the maps on big groups).
		return ws[0].assignors[0]
	}
	common, _ := supportedByAll(ws, nil)
	votes := map[assignor]int{}
	for _, e := range ws {
		for _, a := range e.assignors {
			if common&(1<<a) != 0 {
				votes[a]++
				break
			}
		}
	}
	best, bestName := asNone, ""
	for a, n := range votes {
		name := assignorName(a)
		if best == asNone || n > votes[best] || n == votes[best] && name < bestName {
			best, bestName = a, name
		}
	}
	return best
}

func assignorName(a assignor) string {
	for n, x := range assignorNames {
		if x == a {
			return n
		}
	}
	return ""
}

// sameLists reports whether every live entry lists the same assignors (and at least one).
func sameLists(es []*entry) bool {
	first := es[0].assignors
	if len(first) == 0 {
		return false
	}
	for _, e := range es {
		if a := e.assignors; e.removed || len(a) == len(first) && &a[0] == &first[0] {
			continue // one list, shared (internAssignors)
		}
		if !slices.Equal(e.assignors, first) {
			return false
		}
	}
	return !es[0].removed
}
