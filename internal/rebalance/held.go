package rebalance

import "slices"

// release notes that m's claim on it ended: every change of an item's owner away from m
// comes through here, so heldList knows which of held's items to check.
func (s *sim) release(m *member, it int32) {
	m.heldDirty = true
	if !m.goneLost {
		if len(m.gone) < 64 {
			m.gone = append(m.gone, it)
		} else {
			m.gone, m.goneLost = m.gone[:0], true // too many to be worth it: check every item
		}
	}
}

// releaseAll is release for each of its.
func (s *sim) releaseAll(m *member, its []int32) {
	if len(m.gone)+len(its) > 64 {
		m.heldDirty, m.gone, m.goneLost = true, m.gone[:0], true
		return
	}
	for _, it := range its {
		s.release(m, it)
	}
}

// heldList compacts and returns the items m holds a claim on.
func (s *sim) heldList(m *member) []int32 {
	if !m.heldDirty {
		return m.held
	}
	if heldCheck != nil {
		before := slices.Clone(m.held)
		out := s.compactHeld(m)
		heldCheck(s, m, before, out)
		return out
	}
	return s.compactHeld(m)
}

// heldCheck, set only by a test, sees every compaction.
var heldCheck func(s *sim, m *member, before, after []int32)

func (s *sim) compactHeld(m *member) []int32 {
	m.heldDirty = false
	exact := !m.goneLost // m.gone lists every item released since the last compaction
	gone := m.gone
	m.gone, m.goneLost = m.gone[:0], false
	if hb := m.heldBatch; hb >= 0 && len(m.held) > 0 && s.batches[hb].gen == m.heldGen && s.batches[hb].n == int32(len(m.held)) {
		// Exactly held's items still follow hb (see revokeItems), so its owner decides for all:
		// what the scan below would find, without touching every item.
		if s.batches[hb].owner != m.idx {
			if m.heldShared {
				m.held = nil
			}
			m.held, m.heldShared, m.heldBatch = m.held[:0], false, -1
		}
		return m.held
	}
	// Items released since the last compaction are marked gone: the others are still m's
	// (every release is noted) and in held once (an item comes back to held only after a
	// release), so only the gone ones are checked.
	s.stamp++
	goneMark := s.stamp
	if exact {
		for _, it := range gone {
			s.stamps[it] = goneMark
		}
		s.stamp++
	}
	out := m.held[:0]
	if m.heldShared {
		out, m.heldShared = make([]int32, 0, len(m.held)), false // a fresh slice, sized once
	}
	one := int32(-2) // the batch every kept item follows so far; -1 when they differ
	follows := func(b int32) {
		if one == -2 {
			one = b
		} else if one != b {
			one = -1
		}
	}
	// check keeps it if m still holds it and it is not kept already.
	check := func(it int32) {
		// An item following a batch exists (kill detaches), so its batch alone decides.
		var mine bool
		b := s.bat[it]
		if b >= 0 {
			mine = s.batches[b].owner == m.idx
		} else {
			x := &s.items[it]
			mine = x.owner == m.idx && x.exists
		}
		if mine && s.stamps[it] != s.stamp {
			s.stamps[it] = s.stamp
			out = append(out, it)
			follows(b)
		}
	}
	held := m.held
	switch {
	case exact && len(gone) > 0 && len(gone) <= 4:
		// A few gone items, found by value: the runs between them are kept as they are.
		// (out may be held itself: it never gets ahead of what has been read.)
		var g [4]int32
		for i := range g {
			g[i] = gone[i%len(gone)] // unused slots repeat an item
		}
		from := 0
		for k := 0; k <= len(held); k++ {
			if k < len(held) {
				if it := held[k]; it != g[0] && it != g[1] && it != g[2] && it != g[3] {
					continue
				}
			}
			run := held[from:k]
			out = append(out, run...)
			for _, it := range run {
				if one == -1 {
					break
				}
				follows(s.bat[it])
			}
			if k < len(held) {
				check(held[k])
			}
			from = k + 1
		}
	case exact:
		for _, it := range held {
			if st := s.stamps[it]; st != goneMark && st != goneMark+1 {
				out = append(out, it)
				if one != -1 {
					follows(s.bat[it])
				}
				continue
			}
			check(it)
		}
	default:
		for _, it := range held {
			check(it)
		}
	}
	m.held = out
	m.heldBatch = -1
	if one >= 0 && s.batches[one].n == int32(len(out)) {
		m.heldBatch, m.heldGen = one, s.batches[one].gen
	}
	return out
}

// appendShared appends l to dst, or returns l itself (capped, so later appends copy) when dst
// is empty; l must never be modified afterwards.
func appendShared(dst, l []int32) []int32 {
	if len(dst) == 0 {
		return l[:len(l):len(l)]
	}
	return append(dst, l...)
}
