package store

import (
	"sync"
	"time"
)

// settingCache reuses instance-setting look-ups for sessionTTL: every signed-in card page asks
// whether members may edit cards, and the answer changes about never. SetSetting clears it; a
// change made by another process shows within the TTL, as for sessions.
type settingCache struct {
	mu  sync.Mutex
	gen uint64 // bumped by clear: a look-up that raced a change is not stored
	m   map[string]settingEntry
}

type settingEntry struct {
	value   string
	fetched time.Time
}

func (c *settingCache) get(key string, now time.Time) (v string, ok bool, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if ok && !now.Before(e.fetched) && now.Sub(e.fetched) < sessionTTL {
		return e.value, true, c.gen
	}
	return "", false, c.gen
}

func (c *settingCache) put(key, v string, now time.Time, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if c.m == nil {
		c.m = make(map[string]settingEntry) // keys are the few Setting* names
	}
	c.m[key] = settingEntry{value: v, fetched: now}
}

func (c *settingCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.m = nil
}
