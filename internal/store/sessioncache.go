package store

import (
	"database/sql"
	"sync"
	"time"
)

// sessionTTL is how long a session look-up is reused. Every signed-in request starts with one,
// and it was a fifth of a rating's CPU. Each method here that changes a user or ends a session
// clears the cache, so this process never sees a stale answer; a change made by another
// process (the `rehearse user` commands) shows within this time.
const sessionTTL = time.Second

// sessionCacheMax bounds the cache; past it the cache starts again empty.
const sessionCacheMax = 4096

type sessionCache struct {
	mu  sync.Mutex
	gen uint64 // bumped by clear: a look-up that raced a change is not stored
	m   map[string]sessionEntry
}

type sessionEntry struct {
	user             User
	fetched, expires time.Time
}

// get returns a copy of the cached user when the entry is fresh at now and the session has not
// expired; gen is the generation to pass to put after a miss.
func (c *sessionCache) get(digest []byte, now time.Time) (u *User, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[string(digest)]
	if ok && !now.Before(e.fetched) && now.Sub(e.fetched) < sessionTTL && now.Before(e.expires) {
		cp := e.user
		return &cp, c.gen
	}
	return nil, c.gen
}

func (c *sessionCache) put(digest []byte, u *User, now, expires time.Time, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.m == nil || len(c.m) >= sessionCacheMax {
		c.m = make(map[string]sessionEntry)
	}
	c.m[string(digest)] = sessionEntry{user: *u, fetched: now, expires: expires}
}

func (c *sessionCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.m = nil
}

// withExpiry scans a user row followed by the session's expiry and the user's theme.
type withExpiry struct {
	row   *sql.Row
	exp   *int64
	theme *string
}

func (w withExpiry) Scan(dest ...any) error { return w.row.Scan(append(dest, w.exp, w.theme)...) }
