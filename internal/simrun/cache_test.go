package simrun

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// roundHeavy is a lab-sized scenario whose result is mostly rounds' per-member maps: a hundred
// members sharing a thousand partitions through a rolling restart (the audit's shape).
func roundHeavy(seed int64) rebalance.Scenario {
	members := make([]string, 100)
	for i := range members {
		members[i] = fmt.Sprintf("m%d", i)
	}
	return rebalance.Scenario{Kind: "consumer", Protocol: "cooperative", Assignor: "cooperative-sticky", Seed: seed,
		Topics: map[string]int{"t": 1000}, Members: members, DurationMS: 10 * 60 * 1000,
		Events: []rebalance.Event{{AtMS: 1000, Type: "rolling_restart", DownMS: 500, IntervalMS: 2000}}}
}

func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// ResultBytes counts what a result really holds: checked against the heap a real run keeps,
// it may overcount somewhat but never count much less.
func TestResultBytesMatchesTheHeap(t *testing.T) {
	before := heapNow()
	res, err := rebalance.Run(context.Background(), roundHeavy(1), rebalance.WebLimits)
	if err != nil {
		t.Fatal(err)
	}
	held := float64(heapNow()) - float64(before)
	est := float64(ResultBytes(res))
	t.Logf("%d rounds: heap %.1f MB, ResultBytes %.1f MB", len(res.Rounds), held/1e6, est/1e6)
	if held < 1e6 {
		t.Fatalf("the scenario holds only %.1f MB: not the heavy shape this test needs", held/1e6)
	}
	if est < 0.85*held || est > 2.5*held {
		t.Errorf("ResultBytes %.1f MB for a result holding %.1f MB of heap", est/1e6, held/1e6)
	}
	runtime.KeepAlive(res)
}

// Filled with many distinct heavy results, the cache holds what it may and no more: the heap
// it keeps stays near its byte bound (the audit's 40 API runs left 530 MB against 256 MiB).
func TestSimCacheFilledStaysWithinItsBytes(t *testing.T) {
	const bound = 16 << 20
	c := NewCache(1000, bound)
	before := heapNow()
	for seed := range int64(12) {
		res, err := rebalance.Run(context.Background(), roundHeavy(seed+10), rebalance.WebLimits)
		if err != nil {
			t.Fatal(err)
		}
		c.Put(fmt.Sprint(seed), res)
	}
	held := float64(heapNow()) - float64(before)
	t.Logf("cache of %d results: heap %.1f MB for a bound of %d MB", c.Len(), held/1e6, bound>>20)
	if c.Len() < 2 {
		t.Fatalf("the cache kept %d results: too few to test the bound", c.Len())
	}
	if held > 1.2*bound {
		t.Errorf("the cache keeps %.1f MB of heap; its bound is %d MB", held/1e6, bound>>20)
	}
	runtime.KeepAlive(c)
}

func TestSimCacheBounded(t *testing.T) {
	t.Parallel()
	heavy := &rebalance.Result{Items: make([]string, 60)}
	c := NewCache(2, ResultBytes(heavy)) // two small ones fit
	small := &rebalance.Result{Items: []string{"a"}}
	c.Put("a", small)
	c.Put("b", small)
	c.Get("a") // a is now the most recent
	c.Put("c", small)
	if _, ok := c.Get("b"); ok {
		t.Error("least recently used entry kept past the count bound")
	}
	if _, ok := c.Get("a"); !ok {
		t.Error("recently used entry evicted")
	}
	big := &rebalance.Result{Items: make([]string, 61)}
	c.Put("big", big)
	if _, ok := c.Get("big"); ok {
		t.Error("a result heavier than the whole cache was kept")
	}
	c.Put("heavy", heavy)
	if c.Len() != 1 || c.weight != ResultBytes(heavy) {
		t.Errorf("after a heavy entry: len %d weight %d, want 1 and %d", c.Len(), c.weight, ResultBytes(heavy))
	}
}
