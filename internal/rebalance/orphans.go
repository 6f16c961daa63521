package rebalance

import "slices"

// claims remembers the lists the last orphans call counted, so the next call updates the
// counts by what changed rather than marking every list again: a round touches a few members'
// lists, and a cooperative rolling restart asks twice per restart.
//
// It relies on what every caller's lists already promise (see member.heldShared): a list
// handed out is never rewritten in place, so a list with the same first element's address
// and the same length holds the same items.
type claims struct {
	valid bool
	world uint64    // s.world the counts are for: items appearing, reviving or dying resets
	cnt   []int32   // per item: how many remembered lists hold it
	lists [][]int32 // by key: the list remembered for it (nil: none)
	keys  []int32   // the keys of the remembered lists
	zero  []int32   // the live items no remembered list holds, in canonical order
	seen  []uint32  // per key: the call that saw it last
	call  uint32
	drop  []int32 // scratch: items whose count fell to zero in this call
}

// orphans lists the live items that no list in owned holds, in canonical order; keys[i] names
// owned[i] (a member id of the caller's, unique among the lists); sum is the lists' total
// length, and when it covers every live item there can be none, so the scan is skipped.
func (s *sim) orphans(keys []int32, owned [][]int32, sum int) []int32 {
	if sum == s.liveCount {
		return nil
	}
	c := &s.claims
	if !c.valid || c.world != s.world || len(c.cnt) != len(s.items) {
		s.countClaims(keys, owned)
	} else {
		s.updateClaims(keys, owned)
	}
	out := append(make([]int32, 0, len(c.zero)), c.zero...)
	if orphansCheck != nil {
		orphansCheck(s, owned, out)
	}
	return out
}

// orphansCheck, set only by a test, sees every answer orphans gives.
var orphansCheck func(s *sim, owned [][]int32, got []int32)

// countClaims counts owned from scratch.
func (s *sim) countClaims(keys []int32, owned [][]int32) {
	c := &s.claims
	if cap(c.cnt) < len(s.items) {
		c.cnt = make([]int32, len(s.items))
	}
	c.cnt = c.cnt[:len(s.items)]
	clear(c.cnt)
	clear(c.lists)
	for i, o := range owned {
		for _, it := range o {
			c.cnt[it]++
		}
		c.remember(keys[i], o)
	}
	c.keys = append(c.keys[:0], keys...)
	c.valid, c.world = true, s.world
	c.zero = c.zero[:0]
	for g := range s.groups {
		for _, it := range s.liveItems(g) {
			if c.cnt[it] == 0 {
				c.zero = append(c.zero, it)
			}
		}
	}
}

func (c *claims) remember(key int32, l []int32) {
	for int(key) >= len(c.lists) {
		c.lists = append(c.lists, nil)
	}
	c.lists[key] = l
}

// updateClaims moves the counts from the remembered lists to owned.
func (s *sim) updateClaims(keys []int32, owned [][]int32) {
	c := &s.claims
	c.call++
	for _, k := range keys {
		for int(k) >= len(c.seen) {
			c.seen = append(c.seen, 0)
		}
	}
	drop := c.drop[:0]
	for i, l := range owned {
		k := keys[i]
		c.seen[k] = c.call
		var old []int32
		if int(k) < len(c.lists) {
			old = c.lists[k]
		}
		drop = c.diff(old, l, drop)
		c.remember(k, l)
	}
	for _, k := range c.keys {
		if int(k) < len(c.seen) && c.seen[k] == c.call {
			continue
		}
		drop = c.diff(c.lists[k], nil, drop)
		c.lists[k] = nil
	}
	c.keys = append(c.keys[:0], keys...)
	// The new orphans are among the old ones and the items whose count fell to zero.
	z := append(c.zero, drop...)
	s.sortItems(z)
	z = slices.Compact(z)
	out := z[:0]
	for _, it := range z {
		if x := &s.items[it]; c.cnt[it] == 0 && x.exists && !x.deleted {
			out = append(out, it)
		}
	}
	c.zero, c.drop = out, drop[:0]
}

// diff moves the counts from list old to list l, appending to drop the items whose count
// falls to zero. Common items in the same order cost a comparison: a list that lost some
// items, or gained a tail, touches only those.
func (c *claims) diff(old, l []int32, drop []int32) []int32 {
	if len(old) == len(l) && (len(l) == 0 || &old[0] == &l[0]) {
		return drop
	}
	j := 0
	for _, it := range old {
		if j < len(l) && l[j] == it {
			j++
			continue
		}
		if c.cnt[it]--; c.cnt[it] == 0 {
			drop = append(drop, it)
		}
	}
	for _, it := range l[j:] {
		c.cnt[it]++
	}
	return drop
}
