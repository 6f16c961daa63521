package server

import (
	"strings"
	"sync"
	"time"
)

// Login rate limits: failures allowed per window, per account name and per client address.
// The per-account limit stops password guessing against one user from many addresses; the
// per-address limit stops one address trying many users.
const (
	loginWindow      = 15 * time.Minute
	loginFailsPerAcc = 10
	loginFailsPerIP  = 30
	limiterMaxKeys   = 50000 // beyond this, stale keys are swept on the next failure
)

// loginLimiter remembers recent failed logins in memory (a restart forgets them, which is fine
// for throttling).
type loginLimiter struct {
	mu    sync.Mutex
	fails map[string][]time.Time
}

func newLoginLimiter() *loginLimiter { return &loginLimiter{fails: map[string][]time.Time{}} }

func accountKey(name string) string { return "u:" + strings.ToLower(name) }
func addrKey(addr string) string    { return "a:" + addr }

func limitFor(key string) int {
	if strings.HasPrefix(key, "u:") {
		return loginFailsPerAcc
	}
	return loginFailsPerIP
}

// blocked reports whether any key has used up its failures, and for how long it stays blocked.
func (l *loginLimiter) blocked(now time.Time, keys ...string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var wait time.Duration
	for _, k := range keys {
		list := l.recent(k, now)
		if n := limitFor(k); len(list) >= n {
			// Blocked until the oldest failure that keeps the count at the limit leaves the window.
			wait = max(wait, list[len(list)-n].Add(loginWindow).Sub(now))
		}
	}
	return wait > 0, wait
}

// fail records one failed attempt against every key.
func (l *loginLimiter) fail(now time.Time, keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.fails) > limiterMaxKeys {
		for k := range l.fails {
			l.recent(k, now)
		}
	}
	for _, k := range keys {
		l.fails[k] = append(l.recent(k, now), now)
	}
}

// clear forgets an account's failures after a successful login.
func (l *loginLimiter) clear(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, key)
}

// recent drops failures older than the window and returns the rest (mu held).
func (l *loginLimiter) recent(k string, now time.Time) []time.Time {
	list := l.fails[k]
	i := 0
	for i < len(list) && !list[i].After(now.Add(-loginWindow)) {
		i++
	}
	list = list[i:]
	if len(list) == 0 {
		delete(l.fails, k)
		return nil
	}
	l.fails[k] = list
	return list
}
