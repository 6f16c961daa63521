package auth

import (
	"net/netip"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Login throttling (docs/operations.md, "Login throttling"), for password logins and for the
// actions that ask for the password again. Attempts are counted when they
// start, before the password is hashed, so concurrent guesses cannot all slip through while
// the first ones are still being checked. Three keys:
//   - (account, address): a few failures, then that address waits for that account only;
//   - address: a bound on one address trying many accounts;
//   - account: past a threshold the account is "hot" and addresses that already failed on it
//     get one attempt per slowGap. Addresses that have not failed on it are never held back
//     by the account, so an attacker cannot keep a known user out.
const (
	LoginWindow       = 15 * time.Minute
	LoginFailsPerPair = 5
	LoginFailsPerAddr = 30
	loginFailsHot     = 10 // account failures in the window that make it hot
	LoginSlowGap      = time.Minute
	limiterMaxKeys    = 50000 // beyond this, stale keys are swept on the next attempt
)

// LoginLimiter remembers recent login attempts in memory (a restart forgets them, which is
// fine for throttling; the data-directory lock keeps it to one server per database).
type LoginLimiter struct {
	mu       sync.Mutex
	fails    map[string][]time.Time // key -> attempt times in the window, oldest first
	lastSlow map[string]time.Time   // pair key -> last attempt let through while its account was hot
}

// NewLoginLimiter starts with no attempts remembered.
func NewLoginLimiter() *LoginLimiter {
	return &LoginLimiter{fails: map[string][]time.Time{}, lastSlow: map[string]time.Time{}}
}

// LoginAttempt is one counted attempt; the caller settles it once the password was checked.
type LoginAttempt struct {
	l    *LoginLimiter
	at   time.Time
	keys [3]string // pair, address, account
}

// AddrBucket is the address as the limiter sees it: IPv6 clients by their /64, since one host
// usually holds a whole /64.
func AddrBucket(a netip.Addr) string {
	if a.Is6() && !a.Is4In6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.Unmap().String()
}

// Begin counts an attempt for account from addr, or refuses it with how long to wait.
func (l *LoginLimiter) Begin(now time.Time, account string, addr netip.Addr) (*LoginAttempt, time.Duration) {
	acc := accountKey(account)
	a := "a:" + AddrBucket(addr)
	pair := acc + "|" + a
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.fails) > limiterMaxKeys {
		l.sweep(now)
	}
	var wait time.Duration
	if list := l.recent(pair, now); len(list) >= LoginFailsPerPair {
		wait = max(wait, list[len(list)-LoginFailsPerPair].Add(LoginWindow).Sub(now))
	}
	if list := l.recent(a, now); len(list) >= LoginFailsPerAddr {
		wait = max(wait, list[len(list)-LoginFailsPerAddr].Add(LoginWindow).Sub(now))
	}
	hot := len(l.recent(acc, now)) >= loginFailsHot
	knownBad := len(l.recent(pair, now)) > 0
	if wait == 0 && hot && knownBad {
		if last, ok := l.lastSlow[pair]; ok && now.Sub(last) < LoginSlowGap {
			wait = LoginSlowGap - now.Sub(last)
		}
	}
	if wait > 0 {
		return nil, wait
	}
	if hot && knownBad {
		l.lastSlow[pair] = now
	}
	at := &LoginAttempt{l: l, at: now, keys: [3]string{pair, a, acc}}
	for _, k := range at.keys {
		l.fails[k] = append(l.fails[k], now)
	}
	return at, 0
}

// Failed keeps the attempt counted (it was counted when it began).
func (at *LoginAttempt) Failed() {}

// Succeeded forgets the address's failures on this account and refunds this attempt.
func (at *LoginAttempt) Succeeded() {
	at.l.mu.Lock()
	defer at.l.mu.Unlock()
	delete(at.l.fails, at.keys[0])
	delete(at.l.lastSlow, at.keys[0])
	at.l.refund(at.at, at.keys[1:]...)
}

// Cancel refunds an attempt whose password was never checked (server busy, database error).
func (at *LoginAttempt) Cancel() {
	at.l.mu.Lock()
	defer at.l.mu.Unlock()
	at.l.refund(at.at, at.keys[:]...)
}

// accountKey is the account's key. Names longer than any valid user name are cut, so a
// megabyte "username" costs the limiter no more memory than a real one.
func accountKey(name string) string {
	return "u:" + strings.ToLower(cut(name, maxUsernameKey))
}

const maxUsernameKey = 80 // above the 64 bytes a user name may have

// ClearAccount forgets every failure recorded against an account (after a password reset).
func (l *LoginLimiter) ClearAccount(account string) {
	acc := accountKey(account)
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, acc)
	for k := range l.fails {
		if strings.HasPrefix(k, acc+"|") {
			delete(l.fails, k)
		}
	}
}

// refund removes one attempt made at t from each key (mu held).
func (l *LoginLimiter) refund(t time.Time, keys ...string) {
	for _, k := range keys {
		list := l.fails[k]
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].Equal(t) {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(l.fails, k)
		} else {
			l.fails[k] = list
		}
	}
}

func (l *LoginLimiter) sweep(now time.Time) {
	for k := range l.fails {
		l.recent(k, now)
	}
	for k, t := range l.lastSlow {
		if now.Sub(t) > LoginWindow {
			delete(l.lastSlow, k)
		}
	}
}

// recent drops attempts older than the window and returns the rest (mu held).
func (l *LoginLimiter) recent(k string, now time.Time) []time.Time {
	list := l.fails[k]
	i := 0
	for i < len(list) && !list[i].After(now.Add(-LoginWindow)) {
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

// Attempts is how many attempts from addr's bucket are counted in the window ending at now.
func (l *LoginLimiter) Attempts(addr netip.Addr, now time.Time) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recent("a:"+AddrBucket(addr), now))
}

// cut shortens s to at most n bytes on a rune boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
