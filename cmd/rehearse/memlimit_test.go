package main

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/rehearse/rehearse/internal/auth"
)

// The default soft memory limit is at least minMemoryLimit, grows with the live heap, and leaves
// room besides for the block of a password check; a GOMEMLIMIT the operator set is left alone.
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
	check := int64(auth.Production.MemoryKiB) << 10
	if got := debug.SetMemoryLimit(-1); got < minMemoryLimit+check || got == math.MaxInt64 {
		t.Fatalf("the default limit is %d MiB, want at least %d MiB and a password check's %d MiB", got>>20, minMemoryLimit>>20, check>>20)
	}
	keep := make([]byte, minMemoryLimit/2) // live: the limit must leave it room to work
	debug.FreeOSMemory()
	setMemoryLimit(func(string) string { return "" })
	if got := debug.SetMemoryLimit(-1); got < memoryPerLive*int64(len(keep))+check {
		t.Fatalf("with %d MiB live the limit is %d MiB", len(keep)>>20, got>>20)
	}
	keep[0] = 1
}
