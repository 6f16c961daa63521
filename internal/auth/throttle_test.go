package auth

import (
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestLimiterWindowAndRefund(t *testing.T) {
	t.Parallel()
	l := NewLoginLimiter()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	addr := netip.MustParseAddr("192.0.2.1")
	for i := 0; i < LoginFailsPerPair; i++ {
		at, _ := l.Begin(t0.Add(time.Duration(i)*time.Minute), "Bob", addr)
		at.Failed()
	}
	if at, wait := l.Begin(t0.Add(9*time.Minute), "bob", addr); at != nil || wait != LoginWindow-9*time.Minute {
		t.Fatalf("attempt=%v wait=%v", at, wait)
	}
	// The first failure leaves the window: one attempt is allowed again, and a success forgets.
	at, _ := l.Begin(t0.Add(LoginWindow+time.Second), "bob", addr)
	if at == nil {
		t.Fatal("still blocked after the oldest failure expired")
	}
	at.Succeeded()
	if n := len(l.recent("u:bob|a:192.0.2.1", t0.Add(LoginWindow+time.Second))); n != 0 {
		t.Fatalf("pair keeps %d failures after a success", n)
	}
	// IPv6 addresses in one /64 share a bucket.
	if AddrBucket(netip.MustParseAddr("2001:db8::1")) != AddrBucket(netip.MustParseAddr("2001:db8::ffff:1")) {
		t.Fatal("one /64 split into two buckets")
	}
}

// A huge made-up user name is stored cut, so failed logins cannot make the limiter hold megabytes.
func TestLimiterKeysBounded(t *testing.T) {
	t.Parallel()
	l := NewLoginLimiter()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at, _ := l.Begin(now, strings.Repeat("x", 1<<20), netip.MustParseAddr("192.0.2.1"))
	at.Failed()
	total := 0
	for k := range l.fails {
		total += len(k)
	}
	if total > 400 {
		t.Fatalf("limiter keys take %d bytes for one attempt", total)
	}
}
