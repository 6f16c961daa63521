package rebalance

// The item waits: start_ms after startItems and revoke_ms after revokeItems, scheduled for
// every member that gains or gives up items in every round. Each was a closure, two or three
// allocations per member per round and most of a big run's garbage (6.4 M in the eager rolling
// restart of 1,000 members over 100,000 partitions). Each is now a record in a reused slab,
// scheduled as a typed act that names its slot, so a round allocates nothing for its waits.

// The engine's own typed acts, numbered above every protocol's kinds.
const (
	actStarted actKind = 250 + iota // the start_ms wait in slot a ends
	actRevoked                      // the revoke_ms wait in slot a ends
)

// itemWait is what a wait needs when it ends: who, when it began, and the items it is for.
type itemWait struct {
	items       []int32 // started or stopping: shared with the caller's list, never rewritten
	then        act     // revokeItems's continuation: run once the items are released, if set
	t0          int64   // when the wait began
	inc         int     // the member's incarnation then: a restarted member's waits are void
	m, b        int32   // the member, and the batch the items followed (-1: none)
	gen         uint32  // that batch's generation
	byRebalance bool    // revoked by a rebalance rather than a shutdown
}

// wait keeps w in a free slot and returns the slot.
func (s *sim) wait(w itemWait) int32 {
	if n := len(s.freeWaits); n > 0 {
		x := s.freeWaits[n-1]
		s.freeWaits = s.freeWaits[:n-1]
		s.waits[x] = w
		return x
	}
	s.waits = append(s.waits, w)
	return int32(len(s.waits) - 1)
}

// endWait frees slot x and returns what it held; the slab keeps no reference to the items.
func (s *sim) endWait(x int32) itemWait {
	w := s.waits[x]
	s.waits[x] = itemWait{}
	s.freeWaits = append(s.freeWaits, x)
	return w
}

// endOf (Run's loop calls it for the engine's own acts) runs the end of the item wait that a names.
func (s *sim) endOf(a act) {
	if w := s.endWait(a.a); a.kind() == actStarted {
		s.started(w)
	} else {
		s.revoked(w)
	}
}

// then is the act that calls fn, for revokeItems's callers whose continuation is a closure.
func (s *sim) then(fn func()) act { return s.q.closure(fn) }
