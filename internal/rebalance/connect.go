package rebalance

import "sort"

// Kafka Connect runs the classic coordinator; what differs is the leader's assignment. Eager
// (V0) uses assignConnectEager; incremental cooperative (KIP-415) is below: keep what runs,
// park lost work for scheduled.rebalance.max.delay.ms, hand new work to the least loaded, and
// revoke for balance only when no delay is active, backing off between revoking rounds.

// connectLeader is the state the incremental leader keeps between rounds.
type connectLeader struct {
	prev            []int32        // item -> entry that ran it in the last assignment (-1)
	scheduled       int64          // when the scheduled delay expires, or 0
	candidates      map[int32]bool // workers seen empty while the delay runs: they get lost work
	prevRevoked     bool           // the last round revoked for balance
	nSucc           int            // successive revoking rounds (back-off exponent)
	revokeAllowedAt int64
	held            bool // balancing revocations were put off this round
}

// isConnector tells a connector item from a task; Connect balances the two apart.
func (s *sim) isConnector(it int32) bool { return s.info[it].part < 0 }

// connectIncremental is KIP-415's leader logic for one round over ws (sorted by name).
func (c *classic) connectIncremental(ws []*entry) (newA, revoke map[*entry][]int32, parked []int32) {
	newA, revoke = map[*entry][]int32{}, map[*entry][]int32{}
	lost, fresh, prevPresent := c.connectKeep(ws, newA, revoke)
	fresh, parked, delayActive := c.connectLost(ws, newA, lost, fresh, prevPresent)
	c.connectFresh(ws, newA, fresh)
	if !delayActive && c.scheduled == 0 {
		c.connectBalance(ws, newA, revoke)
	} else {
		c.prevRevoked, c.nSucc = false, 0
	}
	c.connectRemember(newA, parked)
	return newA, revoke, parked
}

// connectKeep keeps what every worker runs (revoking removed tasks) and sorts the rest into
// lost work (assigned last time) and fresh work; prevPresent is whether every lost item's
// previous worker is still in the group.
func (c *classic) connectKeep(ws []*entry, newA, revoke map[*entry][]int32) (lost, fresh []int32, prevPresent bool) {
	s := c.s
	active := make([]int32, len(s.items))
	fill(active, -1)
	byID := map[int32]*entry{}
	for _, e := range ws {
		byID[e.id] = e
		for _, it := range e.owned {
			x := &s.items[it]
			if !x.exists || x.deleted {
				revoke[e] = append(revoke[e], it)
				continue
			}
			active[it] = e.id
			newA[e] = append(newA[e], it)
		}
	}
	prevPresent = true
	for it := range s.items {
		x := &s.items[it]
		if !x.exists || x.deleted || active[it] >= 0 {
			continue
		}
		if c.prev[it] >= 0 {
			lost = append(lost, int32(it))
			if byID[c.prev[it]] == nil {
				prevPresent = false
			}
		} else {
			fresh = append(fresh, int32(it))
		}
	}
	return lost, fresh, prevPresent
}

// connectLost decides what happens to lost work: handed out at once (no delay, or its workers
// are back), given to the candidates once the delay expires, or parked while it runs.
func (c *classic) connectLost(ws []*entry, newA map[*entry][]int32, lost, fresh []int32, prevPresent bool) (_ []int32, parked []int32, delayActive bool) {
	s := c.s
	now := s.now
	switch {
	case len(lost) == 0:
		c.scheduled = 0
		clear(c.candidates)
	case s.cfg.schedDelay == 0 || (c.scheduled == 0 && prevPresent):
		fresh = append(fresh, lost...)
		c.scheduled = 0
		clear(c.candidates)
	case c.scheduled > 0 && now >= c.scheduled:
		var cands []*entry
		for _, e := range ws {
			if c.candidates[e.id] {
				cands = append(cands, e)
			}
		}
		if len(cands) > 0 {
			k := 0
			for _, conn := range []bool{true, false} {
				for _, it := range lost {
					if s.isConnector(it) == conn {
						e := cands[k%len(cands)]
						newA[e] = append(newA[e], it)
						k++
					}
				}
			}
		} else {
			fresh = append(fresh, lost...)
		}
		c.scheduled = 0
		clear(c.candidates)
	default:
		for _, e := range ws {
			if len(newA[e]) == 0 {
				c.candidates[e.id] = true
			}
		}
		if c.scheduled == 0 || now >= c.scheduled {
			c.scheduled = now + s.cfg.schedDelay
		}
		delayActive = true
		parked = lost
	}
	return fresh, parked, delayActive
}

// connectFresh gives new work to the least loaded worker, connectors and tasks counted apart.
func (c *classic) connectFresh(ws []*entry, newA map[*entry][]int32, fresh []int32) {
	s := c.s
	for _, conn := range []bool{true, false} {
		loads := make([]int, len(ws))
		for i, e := range ws {
			for _, it := range newA[e] {
				if s.isConnector(it) == conn {
					loads[i]++
				}
			}
		}
		for _, it := range fresh {
			if s.isConnector(it) != conn {
				continue
			}
			best := 0
			for i := range ws {
				if loads[i] < loads[best] {
					best = i
				}
			}
			newA[ws[best]] = append(newA[ws[best]], it)
			loads[best]++
		}
	}
}

// connectBalance revokes the excess of over-loaded workers, unless the last round revoked too
// and its back-off (40 ms, growing 40-fold up to the scheduled delay) has not passed.
func (c *classic) connectBalance(ws []*entry, newA, revoke map[*entry][]int32) {
	s := c.s
	now := s.now
	want := c.connectExcess(ws, newA)
	if len(want) == 0 {
		c.prevRevoked, c.nSucc = false, 0
		return
	}
	if c.prevRevoked && now < c.revokeAllowedAt {
		c.held = true
		at := c.revokeAllowedAt
		s.at(at, func() {
			if c.state == gStable {
				c.startRebalance("revocation back-off expires")
			}
		})
		return
	}
	c.nSucc++
	backoff := int64(40)
	for i := 1; i < c.nSucc && backoff < s.cfg.schedDelay; i++ {
		backoff *= 40
	}
	c.revokeAllowedAt = now + min(backoff, max(s.cfg.schedDelay, 40))
	c.prevRevoked = true
	for e, its := range want {
		drop := map[int32]bool{}
		for _, it := range its {
			drop[it] = true
		}
		keep := newA[e][:0:0]
		for _, it := range newA[e] {
			if !drop[it] {
				keep = append(keep, it)
			}
		}
		newA[e] = keep
		revoke[e] = append(revoke[e], its...)
	}
}

// connectExcess is, per over-loaded worker, the items above its fair share (the last ones in
// canonical order), connectors and tasks counted apart.
func (c *classic) connectExcess(ws []*entry, newA map[*entry][]int32) map[*entry][]int32 {
	s := c.s
	want := map[*entry][]int32{}
	for _, conn := range []bool{true, false} {
		type wl struct {
			e   *entry
			its []int32
		}
		var w []wl
		total := 0
		for _, e := range ws {
			var its []int32
			for _, it := range newA[e] {
				if s.isConnector(it) == conn {
					its = append(its, it)
				}
			}
			w = append(w, wl{e, its})
			total += len(its)
		}
		q, r := total/len(w), total%len(w)
		sort.SliceStable(w, func(i, j int) bool { return len(w[i].its) > len(w[j].its) })
		for i, x := range w {
			allowed := q
			if i < r {
				allowed++
			}
			if excess := len(x.its) - allowed; excess > 0 {
				sort.Slice(x.its, func(a, b int) bool { return s.less(x.its[a], x.its[b]) })
				want[x.e] = append(want[x.e], x.its[len(x.its)-excess:]...)
			}
		}
	}
	return want
}

// connectRemember records this assignment for the next round; parked work keeps its old
// worker so it stays "lost". Each worker's list is put in canonical order.
func (c *classic) connectRemember(newA map[*entry][]int32, parked []int32) {
	s := c.s
	isParked := make([]bool, len(s.items))
	for _, it := range parked {
		isParked[it] = true
	}
	for it := range c.prev {
		if !isParked[it] {
			c.prev[it] = -1
		}
	}
	for e, its := range newA {
		for _, it := range its {
			c.prev[it] = e.id
		}
	}
	for e, its := range newA {
		sort.Slice(its, func(a, b int) bool { return s.less(its[a], its[b]) })
		newA[e] = its
	}
}
