package server

import (
	"net/netip"
	"sync"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
)

// windowLimiter lets each key (a client address) do something n times per window, for
// anonymous actions that write: making short links. Fixed windows are enough here: the bound
// is on what one address can store per hour, not on bursts.
type windowLimiter struct {
	n       int
	window  time.Duration
	maxKeys int

	mu   sync.Mutex
	keys map[string]windowCount
}

// windowMaxKeys bounds the addresses remembered at once.
const windowMaxKeys = 50000

// addrBucket is the key of a client address (auth.AddrBucket: IPv6 clients by their /64).
func addrBucket(a netip.Addr) string { return auth.AddrBucket(a) }

type windowCount struct {
	start time.Time
	n     int
}

func newWindowLimiter(n int, window time.Duration) *windowLimiter {
	return &windowLimiter{n: n, window: window, maxKeys: windowMaxKeys, keys: map[string]windowCount{}}
}

// allow counts one action for key, or refuses it with how long until the key's window ends.
func (l *windowLimiter) allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.keys[key]
	if !ok || now.Sub(c.start) >= l.window {
		if !ok && len(l.keys) >= l.maxKeys {
			for k, old := range l.keys {
				if now.Sub(old.start) >= l.window {
					delete(l.keys, k)
				}
			}
			if len(l.keys) >= l.maxKeys { // every key is live: refuse new ones until some expire
				return false, l.window
			}
		}
		c = windowCount{start: now}
	}
	if c.n >= l.n {
		return false, c.start.Add(l.window).Sub(now)
	}
	c.n++
	l.keys[key] = c
	return true, 0
}
