package simrun

import (
	"container/list"
	"sync"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// CacheBytes bounds the simulation result cache by the memory its results hold: a card's
// variants hold well under a megabyte each, one large API run tens of megabytes.
const CacheBytes = 48 << 20

// ResultBytes is the heap a result holds, counted from everything in it: each round's
// per-member maps of item names (most of a large run), the timeline's segments, the event
// marks and the names. Item and member names inside rounds and segments share the bytes of
// Items and Members, so they count as string headers only. TestResultBytesMatchesTheHeap
// checks the figure against the heap a real run keeps.
func ResultBytes(r *rebalance.Result) int {
	const (
		str      = 16 // a string header
		slice    = 24 // a slice header
		mapEntry = 80 // a map entry: key, value and the map's own overhead per slot
		mapBase  = 64
		round    = 232 // a Round without its maps' contents
		segment  = 48  // two int64 and two string headers
		mark     = 56
	)
	n := 512
	for _, rd := range r.Rounds {
		n += round + len(rd.Parked)*str
		for _, m := range []map[string][]string{rd.Assignment, rd.Revoked, rd.Added} {
			if m == nil {
				continue
			}
			n += mapBase + len(m)*mapEntry
			for _, items := range m {
				n += cap(items) * str
			}
		}
	}
	for _, t := range r.Timeline {
		n += str + slice + cap(t.Segments)*segment
	}
	n += cap(r.Events) * mark
	for _, e := range r.Events {
		n += len(e.Reason)
	}
	for _, s := range r.Members {
		n += str + len(s)
	}
	for _, s := range r.Items {
		n += str + len(s)
	}
	for _, s := range r.InvariantFailures {
		n += str + len(s)
	}
	return n
}

// Cache is a bounded LRU of results keyed by the scenario's canonical JSON. Results are
// shared read-only between requests.
type Cache struct {
	mu                sync.Mutex
	max, maxW, weight int
	ll                *list.List
	m                 map[string]*list.Element
}

type entry struct {
	key    string
	res    *rebalance.Result
	weight int
}

// NewCache keeps at most max results holding at most maxBytes (ResultBytes).
func NewCache(max, maxWeight int) *Cache {
	return &Cache{max: max, maxW: maxWeight, ll: list.New(), m: map[string]*list.Element{}}
}

func (c *Cache) Get(key string) (*rebalance.Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[key]; ok {
		c.ll.MoveToFront(e)
		return e.Value.(*entry).res, true
	}
	return nil, false
}

func (c *Cache) Put(key string, res *rebalance.Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; ok {
		return // same scenario, same result
	}
	w := ResultBytes(res)
	if w > c.maxW {
		return
	}
	c.m[key] = c.ll.PushFront(&entry{key, res, w})
	c.weight += w
	for c.ll.Len() > c.max || c.weight > c.maxW {
		old := c.ll.Back()
		c.ll.Remove(old)
		e := old.Value.(*entry)
		delete(c.m, e.key)
		c.weight -= e.weight
	}
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ll.Len()
}
