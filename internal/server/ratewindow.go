package server

import (
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/rehearse/rehearse/internal/auth"
)

// windowLimiter lets each key (a client address) do something n times at once and then once per
// window/n (a token bucket per key, golang.org/x/time/rate), for anonymous actions that write:
// making short links. The bound is on what one address can store per hour, not on bursts.
type windowLimiter struct {
	n     int
	every time.Duration

	mu   sync.Mutex
	keys map[string]*rate.Limiter
}

// windowMaxKeys bounds the addresses remembered at once.
const windowMaxKeys = 50000

// addrBucket is the key of a client address (auth.AddrBucket: IPv6 clients by their /64).
func addrBucket(a netip.Addr) string { return auth.AddrBucket(a) }

func newWindowLimiter(n int, window time.Duration) *windowLimiter {
	return &windowLimiter{n: n, every: window / time.Duration(n), keys: map[string]*rate.Limiter{}}
}

// allow counts one action for key at now, or refuses it with how long until the key may act.
func (l *windowLimiter) allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.keys[key]
	if !ok {
		if len(l.keys) >= windowMaxKeys { // forget the keys whose bucket has refilled
			for k, old := range l.keys {
				if old.TokensAt(now) >= float64(l.n) {
					delete(l.keys, k)
				}
			}
			if len(l.keys) >= windowMaxKeys { // every key is live: refuse new ones until some refill
				return false, l.every
			}
		}
		lim = rate.NewLimiter(rate.Every(l.every), l.n)
		l.keys[key] = lim
	}
	r := lim.ReserveN(now, 1)
	if wait := r.DelayFrom(now); wait > 0 {
		r.CancelAt(now)
		return false, wait
	}
	return true, 0
}
