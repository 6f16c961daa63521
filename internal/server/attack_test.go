package server

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// requestSeries counts the per-request series in the server's exposition: one count line for
// each counter and each histogram.
func requestSeries(t *testing.T, s *Server) int {
	t.Helper()
	var b bytes.Buffer
	s.metrics.Write(&b)
	n := 0
	for line := range strings.Lines(b.String()) {
		if strings.HasPrefix(line, "rehearse_http_requests_total{") || strings.HasPrefix(line, "rehearse_http_request_duration_seconds_count{") {
			n++
		}
	}
	return n
}

// Finding 3: invented methods and paths became label values and long log lines. Now a junk
// method is "OTHER", paths never reach a label, and each log line stays short.
func TestJunkMethodsAndPathsBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	var logs bytes.Buffer
	e.srv.log = slog.New(slog.NewTextHandler(&logs, nil))
	h := e.srv.Handler()
	send := func(method, path string) {
		req, _ := http.NewRequest(http.MethodGet, "http://rehearse.test/", nil)
		req.Method, req.URL.Path, req.RequestURI = method, path, path
		h.ServeHTTP(discardWriter{header: http.Header{}}, req)
	}
	// One of each kind first, so every series this traffic can ever create exists.
	send("BREW", "/")
	send("BREW", "/no/such/page")
	send(http.MethodGet, "/no/such/page")
	send(http.MethodGet, "/cards/nope")
	before := requestSeries(t, e.srv)
	logs.Reset()
	for i := range 300 {
		send(strings.Repeat(fmt.Sprintf("M%d", i), 300), "/"+strings.Repeat("x", i*10))
		send(http.MethodGet, fmt.Sprintf("/junk-%d/%s", i, strings.Repeat("y", 3000)))
		send(http.MethodGet, fmt.Sprintf("/cards/nope-%d", i))
	}
	if after := requestSeries(t, e.srv); after != before {
		t.Fatalf("series grew from %d to %d with junk methods and paths", before, after)
	}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if len(line) > 600 {
			t.Fatalf("log line of %d bytes: %.200s…", len(line), line)
		}
	}
	if !strings.Contains(logs.String(), `method="OTHER \"M`) {
		t.Fatalf("junk methods not logged as OTHER: %.300s", logs.String())
	}
}

type discardWriter struct{ header http.Header }

func (d discardWriter) Header() http.Header         { return d.header }
func (d discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d discardWriter) WriteHeader(int)             {}

// Finding 5: next= is judged after the cleaning http.Redirect applies, so "/./\evil.example"
// (sent as "/\evil.example", which browsers resolve to another host) is refused.
func TestLoginNextJudgedAfterCleaning(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	if _, err := e.db.CreateUser(t.Context(), "ada", dummyHash, store.RoleMember, e.now); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"/./\\evil.example":       "/",
		"/a/../\\evil.example":    "/",
		"/.//evil.example":        "/evil.example",
		"/a/..//evil.example":     "/evil.example",
		"/study/../cards/x?y=//z": "/cards/x?y=//z",
		"/study/":                 "/study/",
	}
	for next, want := range cases {
		form := url.Values{"username": {"ada"}, "password": {auth.DummyPassword}, "next": {next}}
		rec := serve(e, http.MethodPost, "/login", "application/x-www-form-urlencoded", "", strings.NewReader(form.Encode()), "")
		loc := rec.Header().Get("Location")
		if rec.Code != http.StatusSeeOther || loc != want {
			t.Errorf("next=%q: %d to %q, want 303 to %q", next, rec.Code, loc, want)
		}
		if strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") {
			t.Errorf("next=%q left the site: %q", next, loc)
		}
	}
}

// Finding 9: behind a trusted proxy that says https, the session cookie is Secure even without
// --base-url or --secure-cookies.
func TestSecureCookieBehindTrustedProxy(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	if _, err := e.db.CreateUser(t.Context(), "ada", dummyHash, store.RoleMember, e.now); err != nil {
		t.Fatal(err)
	}
	for proto, want := range map[string]bool{"https": true, "http": false, "": false} {
		form := url.Values{"username": {"ada"}, "password": {auth.DummyPassword}}
		req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/login", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if proto != "" {
			req.Header.Set("X-Forwarded-Proto", proto)
		}
		resp, err := e.client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var got *http.Cookie
		for _, c := range resp.Cookies() {
			if c.Name == sessionCookie {
				got = c
			}
		}
		if got == nil || got.Secure != want {
			t.Errorf("X-Forwarded-Proto %q: cookie %+v, want Secure=%v", proto, got, want)
		}
	}
}

// Finding 6: links are never taken from a request's Host header once an address is known:
// without --base-url, the one recorded at setup (baseurl.go) is used.
func TestInviteLinkIgnoresHostHeader(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	admin := e.signedIn("ada", store.RoleAdmin)
	if err := e.db.SetSetting(context.Background(), store.SettingExternalURL, "https://rehearse.example.com"); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/admin/invites", strings.NewReader("role=member&days=7"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Host = "evil.example"
	u, _ := url.Parse(e.ts.URL)
	for _, c := range admin.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	resp, err := admin.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusCreated || strings.Contains(body.String(), "evil.example") ||
		!strings.Contains(body.String(), `value="https://rehearse.example.com/invite/`) {
		t.Fatalf("invite with a forged Host: %d\n%.2000s", resp.StatusCode, body.String())
	}
}

// Finding 8: mock tags were stored as sent (9,000 junk tags; a comma did not round-trip). Only
// the deck's tags are accepted now, each stored once.
func TestMockTagsValidatedAgainstDeck(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	c := e.signedIn("ada", store.RoleMember)
	junk := make([]string, 9000)
	for i := range junk {
		junk[i] = fmt.Sprintf("junk-%d", i)
	}
	for _, tags := range [][]string{junk, {"kafka,eager"}, {"kafka", "nope"}} {
		resp, doc := e.post(c, "/mock", url.Values{"n": {"1"}, "depth": {"basics"}, "clock": {"soft"}, "tag": tags})
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find("#form-error").Text(), "Unknown tag") {
			t.Fatalf("tags %.40v: %d %q, want 422 naming the unknown tag", tags, resp.StatusCode, doc.Find("#form-error").Text())
		}
	}
	u, err := e.db.UserByName(t.Context(), "ada")
	if err != nil {
		t.Fatal(err)
	}
	if hist, err := e.db.MockHistory(t.Context(), u.ID, 5, e.now); err != nil || len(hist) != 0 {
		t.Fatalf("refused setups stored sessions: %d %v", len(hist), err)
	}
	resp, _ := e.post(c, "/mock", url.Values{"n": {"1"}, "depth": {"basics"}, "clock": {"soft"}, "tag": {"kafka", "kafka", "eager"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("valid tags: %d", resp.StatusCode)
	}
	hist, err := e.db.MockHistory(t.Context(), u.ID, 1, e.now)
	if err != nil || len(hist) != 1 || strings.Join(hist[0].Settings.Tags, "|") != "kafka|eager" {
		t.Fatalf("stored tags %v %v, want kafka|eager once each", hist, err)
	}
}

// Finding 7: /readyz said 200 while the database could not take a write. Another process holding
// SQLite's write lock is a real unwritable database: /readyz must say 503 and why.
func TestReadyzFailsWhenDatabaseCannotBeWritten(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	if resp, _ := e.get(e.client(), "/readyz"); resp.StatusCode != http.StatusOK {
		t.Fatalf("healthy /readyz: %d", resp.StatusCode)
	}
	other, err := sql.Open("sqlite", "file:"+e.db.Path()+"?_pragma=busy_timeout(100)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(t.Context(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	e.srv.ready.mu.Lock()
	e.srv.ready.at = time.Time{} // forget the cached healthy answer
	e.srv.ready.mu.Unlock()
	resp, err := http.Get(e.ts.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "cannot be written") {
		t.Fatalf("/readyz with the write lock held elsewhere: %d %q, want 503 naming the write", resp.StatusCode, body)
	}
	conn.ExecContext(t.Context(), "ROLLBACK")
	conn.Close()
	e.srv.ready.mu.Lock()
	e.srv.ready.at = time.Time{}
	e.srv.ready.mu.Unlock()
	if resp, _ := e.get(e.client(), "/readyz"); resp.StatusCode != http.StatusOK {
		t.Fatalf("/readyz after the lock was released: %d", resp.StatusCode)
	}
}
