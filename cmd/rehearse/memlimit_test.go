package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// The default soft memory limit is at least minMemoryLimit and grows with the live heap; a
// GOMEMLIMIT the operator set is left alone.
func TestMemoryLimitFollowsTheLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(math.MaxInt64)
	setMemoryLimit(func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1GiB"
		}
		return ""
	})
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Fatalf("with GOMEMLIMIT set the limit became %d", got)
	}
	setMemoryLimit(func(string) string { return "" })
	if got := debug.SetMemoryLimit(-1); got < minMemoryLimit || got == math.MaxInt64 {
		t.Fatalf("the default limit is %d MiB, want at least %d MiB", got>>20, minMemoryLimit>>20)
	}
	keep := make([]byte, minMemoryLimit/2) // live: the limit must leave it room to work
	debug.FreeOSMemory()
	setMemoryLimit(func(string) string { return "" })
	if got := debug.SetMemoryLimit(-1); got < memoryPerLive*int64(len(keep)) {
		t.Fatalf("with %d MiB live the limit is %d MiB", len(keep)>>20, got>>20)
	}
	keep[0] = 1
}
