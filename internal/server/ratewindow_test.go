package server

import (
	"testing"
	"time"
)

// n actions at once, then one per window/n; each key counts apart.
func TestWindowLimiterRefills(t *testing.T) {
	t.Parallel()
	l := newWindowLimiter(3, time.Hour)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3 {
		if ok, _ := l.allow("a", now); !ok {
			t.Fatalf("action %d refused", i+1)
		}
	}
	if ok, wait := l.allow("a", now); ok || wait != 20*time.Minute {
		t.Fatalf("fourth action: ok=%v wait=%v, want refused for 20m", ok, wait)
	}
	if ok, _ := l.allow("b", now); !ok {
		t.Fatal("another key was refused")
	}
	if ok, _ := l.allow("a", now.Add(20*time.Minute)); !ok {
		t.Fatal("refused after the wait")
	}
	if ok, _ := l.allow("a", now.Add(20*time.Minute)); ok {
		t.Fatal("a refill of one allowed two")
	}
}
