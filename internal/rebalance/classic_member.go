package rebalance

// The member side of the classic protocol: what a client does when its process starts, stops,
// crashes or stalls, and how the coordinator hears of it.

func (c *classic) memberStarted(m *member) {
	inc := m.inc
	c.s.after(c.s.cfg.rpc, func() {
		if m.inc == inc && m.up {
			c.join(m, " joins")
		}
	})
}

// memberStopping: a graceful shutdown. The client commits and revokes everything; a dynamic
// member then sends LeaveGroup, a static one does not (KIP-345).
func (c *classic) memberStopping(m *member, down int64) {
	s := c.s
	e := m.entry
	static := s.sc.StaticMembership
	inc := m.inc
	s.revokeItems(m, s.heldList(m), false, s.then(func() {
		if m.inc != inc {
			return
		}
		s.dropItems(m, -1) // anything that arrived while shutting down is never started
		m.up, m.stopping = false, false
		m.inc++
		m.entry = nil
		if e != nil && !e.removed {
			if static {
				c.heartbeatsStop(e)
			} else {
				s.after(s.cfg.rpc, func() { c.remove(e, m.name+" leaves (LeaveGroup)") })
			}
		}
		s.restartAfter(m, down)
	}))
}

func (c *classic) memberCrashed(m *member) {
	if e := m.entry; e != nil && !e.removed {
		m.entry = nil
		c.heartbeatsStop(e)
	}
}

// heartbeatsStop starts the session timer of an entry whose process is gone.
func (c *classic) heartbeatsStop(e *entry) {
	s := c.s
	e.alive = false
	e.revive++
	rev := e.revive
	s.at(s.lastTick(e.m, s.now)+s.cfg.rpc+s.cfg.session, func() {
		if !e.removed && !e.alive && e.revive == rev {
			c.remove(e, e.m.name+"'s session times out")
		}
	})
}

func (c *classic) pollTimeout(m *member) {
	e := m.entry
	if e == nil || e.removed {
		return
	}
	m.entry = nil
	if c.s.sc.StaticMembership {
		c.heartbeatsStop(e)
		return
	}
	c.s.after(c.s.cfg.rpc, func() { c.remove(e, m.name+" exceeds max.poll.interval.ms and leaves") })
}

func (c *classic) pollReturned(m *member) {
	inc := m.inc
	c.s.after(c.s.cfg.rpc, func() {
		if m.inc == inc && m.up {
			c.join(m, " rejoins after its slow poll")
		}
	})
}

func (c *classic) configChanged(why string) {
	c.growArrays()
	c.s.after(c.s.cfg.rpc, func() { c.trigger(why) })
}

// trigger starts (or joins into) a rebalance not caused by a particular joiner.
func (c *classic) trigger(why string) {
	switch c.state {
	case gStable:
		c.startRebalance(why)
	case gPreparing:
		c.addTrigger(why)
	case gCompleting:
		c.deferred = append(c.deferred, func() { c.trigger(why) })
	}
}
