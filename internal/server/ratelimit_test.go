package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/store"
)

func TestLoginRateLimitPerAccount(t *testing.T) {
	e := newEnv(t, Config{})
	e.signedIn("ada", store.RoleAdmin)
	c := e.client()
	bad := url.Values{"username": {"ada"}, "password": {"wrong-password"}}
	for i := 0; i < loginFailsPerAcc; i++ {
		if resp, _ := e.post(c, "/login", bad); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i+1, resp.StatusCode)
		}
	}
	// Now even the right password is refused, with the form and a message.
	resp, doc := e.post(c, "/login", url.Values{"username": {"ADA"}, "password": {"not a real password"}})
	if resp.StatusCode != http.StatusTooManyRequests || doc.Find("form[action='/login']").Length() != 1 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("blocked account: %d", resp.StatusCode)
	}
	msgKnown := doc.Find("#form-error").Text()
	// An unknown name gets the very same answer once it has failed as often.
	ghost := url.Values{"username": {"ghost"}, "password": {"wrong-password"}}
	for i := 0; i < loginFailsPerAcc; i++ {
		e.post(c, "/login", ghost)
	}
	resp, doc = e.post(c, "/login", ghost)
	if resp.StatusCode != http.StatusTooManyRequests || doc.Find("#form-error").Text() != msgKnown || msgKnown == "" {
		t.Fatalf("unknown user blocked differently: %d %q vs %q", resp.StatusCode, doc.Find("#form-error").Text(), msgKnown)
	}
	// The window passes.
	e.now = e.now.Add(loginWindow + time.Second)
	if resp, _ := e.post(c, "/login", url.Values{"username": {"ada"}, "password": {"not a real password"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("after the window: %d", resp.StatusCode)
	}
}

func TestLoginRateLimitPerAddress(t *testing.T) {
	e := newEnv(t, Config{})
	e.signedIn("ada", store.RoleAdmin)
	c := e.client()
	for i := 0; i < loginFailsPerIP; i++ {
		e.post(c, "/login", url.Values{"username": {fmt.Sprintf("user%d", i)}, "password": {"wrong-password"}})
	}
	resp, doc := e.post(c, "/login", url.Values{"username": {"ada"}, "password": {"not a real password"}})
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(doc.Find("#form-error").Text(), "Too many") {
		t.Fatalf("address over its limit: %d", resp.StatusCode)
	}
}

func TestLimiterForgetsOldFailures(t *testing.T) {
	l := newLoginLimiter()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	k := accountKey("Bob")
	for i := 0; i < loginFailsPerAcc; i++ {
		l.fail(t0.Add(time.Duration(i)*time.Minute), k)
	}
	now := t0.Add(9 * time.Minute)
	if ok, wait := l.blocked(now, accountKey("bob")); !ok || wait != loginWindow-9*time.Minute {
		t.Fatalf("blocked=%v wait=%v", ok, wait)
	}
	// The first failure leaves the window: one attempt is allowed again.
	if ok, _ := l.blocked(t0.Add(loginWindow+time.Second), k); ok {
		t.Fatal("still blocked after the oldest failure expired")
	}
	l.clear(k)
	if len(l.fails) != 0 {
		t.Fatalf("keys left: %v", l.fails)
	}
}
