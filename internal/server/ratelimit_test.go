package server

import (
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

var rightPassword = url.Values{"username": {"ada"}, "password": {auth.DummyPassword}}

func TestLoginRateLimitPerPair(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	e.signedIn("ada", store.RoleAdmin)
	c := e.client()
	bad := url.Values{"username": {"ada"}, "password": {"wrong-password"}}
	for i := 0; i < auth.LoginFailsPerPair; i++ {
		if resp, _ := e.post(c, "/login", bad); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i+1, resp.StatusCode)
		}
	}
	// This address is now refused for this account, with the form and a message.
	resp, doc := e.post(c, "/login", url.Values{"username": {"ADA"}, "password": {auth.DummyPassword}})
	if resp.StatusCode != http.StatusTooManyRequests || doc.Find("form[action='/login']").Length() != 1 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("blocked pair: %d", resp.StatusCode)
	}
	msgKnown := doc.Find("#form-error").Text()
	// An unknown name gets the very same answer once it has failed as often.
	ghost := url.Values{"username": {"ghost"}, "password": {"wrong-password"}}
	for i := 0; i < auth.LoginFailsPerPair; i++ {
		e.post(c, "/login", ghost)
	}
	resp, doc = e.post(c, "/login", ghost)
	if resp.StatusCode != http.StatusTooManyRequests || doc.Find("#form-error").Text() != msgKnown || msgKnown == "" {
		t.Fatalf("unknown user blocked differently: %d %q vs %q", resp.StatusCode, doc.Find("#form-error").Text(), msgKnown)
	}
	// The window passes.
	e.now = e.now.Add(auth.LoginWindow + time.Second)
	if resp, _ := e.post(c, "/login", rightPassword); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("after the window: %d", resp.StatusCode)
	}
}

func TestLoginRateLimitPerAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	e.signedIn("ada", store.RoleAdmin)
	c := e.client()
	for i := 0; i < auth.LoginFailsPerAddr; i++ {
		e.post(c, "/login", url.Values{"username": {fmt.Sprintf("user%d", i)}, "password": {"wrong-password"}})
	}
	resp, doc := e.post(c, "/login", rightPassword)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(doc.Find("#form-error").Text(), "Too many") {
		t.Fatalf("address over its limit: %d", resp.StatusCode)
	}
}

// proxiedLogin posts a login as if a trusted proxy forwarded it for client address from.
func proxiedLogin(t *testing.T, e *testEnv, from string, form url.Values) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", from)
	resp, err := e.client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// Finding 4: failures from many addresses must not keep the real user out. Before the fix, ten
// failures from ten addresses made the right password from any address a 429 for 15 minutes.
func TestLoginNoLockoutFromOtherAddresses(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	e.signedIn("admin", store.RoleAdmin)
	bad := url.Values{"username": {"admin"}, "password": {"wrong-password"}}
	for range 3 { // keep attacking past the hot threshold
		for i := range 10 {
			proxiedLogin(t, e, fmt.Sprintf("203.0.113.%d", i+1), bad)
		}
	}
	good := url.Values{"username": {"admin"}, "password": {auth.DummyPassword}}
	if resp := proxiedLogin(t, e, "198.51.100.7", good); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("right password from a new address after failures elsewhere: %d, want 303", resp.StatusCode)
	}
	// An attacking address that already failed is slowed: one attempt per auth.LoginSlowGap.
	e.now = e.now.Add(auth.LoginSlowGap)
	if resp := proxiedLogin(t, e, "203.0.113.1", bad); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("first slow-lane attempt: %d, want 401", resp.StatusCode)
	}
	resp := proxiedLogin(t, e, "203.0.113.1", bad)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("second attempt within the gap: %d, want 429 with Retry-After", resp.StatusCode)
	}
	e.now = e.now.Add(auth.LoginSlowGap)
	if resp := proxiedLogin(t, e, "203.0.113.1", bad); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("after the gap: %d, want 401", resp.StatusCode)
	}
}

// Finding 2: parallel wrong passwords for one account from one address. Before the fix all 60
// were checked (and counted only after argon2), so all got 401 and none 429.
func TestLoginCountsBeforeHashing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{Hasher: auth.NewHasher(auth.Params{Time: 1, MemoryKiB: 4 * 1024, Threads: 1, KeyLen: 32}, 2, time.Minute)})
	e.signedIn("ada", store.RoleAdmin)
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := e.client().PostForm(e.ts.URL+"/login", url.Values{"username": {"ada"}, "password": {"wrong-password"}})
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[http.StatusUnauthorized] != auth.LoginFailsPerPair || codes[http.StatusTooManyRequests] != 60-auth.LoginFailsPerPair {
		t.Fatalf("60 parallel wrong logins answered %v, want %d×401 and the rest 429", codes, auth.LoginFailsPerPair)
	}
}

// When every hashing slot stays busy, a login is a 503 with Retry-After, not an unbounded queue,
// and the attempt is not held against the visitor.
func TestLoginBusyHasher(t *testing.T) {
	t.Parallel()
	slow := auth.NewHasher(auth.Params{Time: 3, MemoryKiB: 16 * 1024, Threads: 1, KeyLen: 32}, 1, time.Millisecond)
	e := newEnv(t, Config{Hasher: slow})
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := e.client().PostForm(e.ts.URL+"/login", url.Values{"username": {fmt.Sprintf("u%d", i)}, "password": {"x"}})
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			mu.Lock()
			codes[resp.StatusCode]++
			if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[http.StatusServiceUnavailable] == 0 || codes[http.StatusUnauthorized] == 0 {
		t.Fatalf("12 parallel logins on one slot answered %v, want some 401 and some 503", codes)
	}
	if n := e.srv.limiter.Attempts(netip.MustParseAddr("127.0.0.1"), e.now); n != codes[http.StatusUnauthorized] {
		t.Fatalf("address has %d counted attempts, want only the %d checked ones", n, codes[http.StatusUnauthorized])
	}
}
