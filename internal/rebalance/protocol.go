package rebalance

// groupProtocol is what the engine asks of a group protocol: the engine owns the clock, the
// items and the recording; the protocol decides who gets what and when. The classic protocol
// (classic.go, with Connect's leader logic in connect.go) and KIP-848 (kip848.go) implement it.
type groupProtocol interface {
	memberStarted(m *member)              // a process starts (or restarts) and joins
	memberStopping(m *member, down int64) // a graceful shutdown; back after down ms if down >= 0
	memberCrashed(m *member)              // the process is gone; its items are already dropped
	pollTimeout(m *member)                // max.poll.interval.ms expired: the client leaves
	pollReturned(m *member)               // the stuck poll loop returns: the client rejoins
	configChanged(why string)             // partitions or tasks were added or removed
	settled() bool                        // no round is in progress or pending
	fire(a act)                           // runs a typed act the protocol scheduled
}
