package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
	"github.com/rehearse/rehearse/web"
)

// testHasher makes and checks hashes with cheap argon2 parameters: the same code path as
// production at a thousandth of the cost, so tests are not dominated by password hashing.
var testHasher = auth.NewHasher(auth.Cheap, 4, time.Minute)

// dummyHash is a hash of auth.DummyPassword ("not a real password") for test users.
var dummyHash = testHasher.DummyHash()

// testEnv is a real server over a temp-file database and the test deck.
type testEnv struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
	db  *store.DB
	now time.Time
}

func newEnv(t *testing.T, cfg Config) *testEnv {
	t.Helper()
	if cfg.Hasher == nil {
		cfg.Hasher = testHasher
	}
	db := storetest.Open(t)
	d, err := deck.Load(os.DirFS("testdata/deck"), deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assets, err := web.NewAssets(map[string][]byte{"highlight.css": []byte(deck.HighlightCSS())})
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{t: t, db: db, now: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e.srv = New(cfg, db, StaticDeck{d}, assets, log, func() time.Time { return e.now })
	e.ts = httptest.NewServer(e.srv.Handler())
	t.Cleanup(e.ts.Close)
	return e
}

// client returns an HTTP client with its own cookie jar that does not follow redirects.
func (e *testEnv) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (e *testEnv) get(c *http.Client, path string) (*http.Response, *goquery.Document) {
	e.t.Helper()
	resp, err := c.Get(e.ts.URL + path)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, doc
}

func (e *testEnv) post(c *http.Client, path string, form url.Values) (*http.Response, *goquery.Document) {
	e.t.Helper()
	resp, err := c.PostForm(e.ts.URL+path, form)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, _ := goquery.NewDocumentFromReader(resp.Body)
	return resp, doc
}

// signedIn creates a user and returns a client logged in as them.
func (e *testEnv) signedIn(name, role string) *http.Client {
	e.t.Helper()
	if _, err := e.db.CreateUser(context.Background(), name, dummyHash, role, e.now); err != nil {
		e.t.Fatal(err)
	}
	c := e.client()
	resp, _ := e.post(c, "/login", url.Values{"username": {name}, "password": {"not a real password"}})
	if resp.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("login as %s: status %d", name, resp.StatusCode)
	}
	return c
}

func TestSetupThenLoginLogout(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	c := e.client()
	resp, _ := e.get(c, "/")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/setup" {
		t.Fatalf("fresh instance: %d %q, want redirect to /setup", resp.StatusCode, resp.Header.Get("Location"))
	}
	// A bad form re-renders with messages and keeps the username.
	resp, doc := e.post(c, "/setup", url.Values{"username": {"ada lovelace"}, "password": {"short"}, "password2": {"short"}})
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad setup: status %d", resp.StatusCode)
	}
	if doc.Find("#username-error").Text() == "" || doc.Find("#password-error").Text() == "" {
		t.Fatal("field messages missing")
	}
	if v, _ := doc.Find("#username").Attr("value"); v != "ada lovelace" {
		t.Fatalf("username not kept: %q", v)
	}
	resp, _ = e.post(c, "/setup", url.Values{"username": {"ada"}, "password": {"analytical"}, "password2": {"analytical"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("setup: status %d", resp.StatusCode)
	}
	var session *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == sessionCookie {
			session = ck
		}
	}
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode {
		t.Fatalf("session cookie flags wrong: %+v", session)
	}
	_, doc = e.get(c, "/")
	if doc.Find("a[href='/account']").Text() != "ada" {
		t.Fatal("not signed in after setup")
	}
	// Setup is closed for good.
	resp, _ = e.post(e.client(), "/setup", url.Values{"username": {"eve"}, "password": {"12345678"}, "password2": {"12345678"}})
	if resp.StatusCode != http.StatusConflict {
		t.Fatalf("second setup: status %d, want 409", resp.StatusCode)
	}
	// Logout ends the session server-side: replaying the old cookie gets nothing.
	resp, _ = e.post(c, "/logout", nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout: %d", resp.StatusCode)
	}
	replay := e.client()
	u, _ := url.Parse(e.ts.URL)
	replay.Jar.SetCookies(u, []*http.Cookie{{Name: sessionCookie, Value: session.Value}})
	_, doc = e.get(replay, "/")
	if doc.Find("#login-link").Length() != 1 {
		t.Fatal("old session still valid after logout")
	}
	// Wrong password and unknown user get the same message.
	_, d1 := e.post(c, "/login", url.Values{"username": {"ada"}, "password": {"wrong-password"}})
	_, d2 := e.post(c, "/login", url.Values{"username": {"nobody"}, "password": {"wrong-password"}})
	if m1, m2 := d1.Find("#form-error").Text(), d2.Find("#form-error").Text(); m1 == "" || m1 != m2 {
		t.Fatalf("login messages differ or are empty: %q vs %q", m1, m2)
	}
	resp, _ = e.post(c, "/login", url.Values{"username": {"ADA"}, "password": {"analytical"}, "next": {"//evil.example"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("login with hostile next: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestCardPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	e.signedIn("ada", store.RoleAdmin)
	resp, doc := e.get(e.client(), "/cards/sample-eager")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if got := doc.Find("h1#question").Text(); got != "Why does eager rebalancing pause the whole group?" {
		t.Fatalf("question = %q", got)
	}
	for _, id := range []string{"answer", "tiers", "explanation", "follow-ups", "pitfalls", "basics", "solid", "deeper"} {
		if doc.Find("#"+id).Length() != 1 {
			t.Errorf("section #%s missing", id)
		}
	}
	if n := doc.Find("#answer details li").Length(); n != 2 {
		t.Errorf("answer bullets = %d, want 2", n)
	}
	if n := doc.Find("#deeper ol.levels > li").Length(); n != 4 {
		t.Errorf("go deeper levels = %d, want 4", n)
	}
	if n := doc.Find("#follow-ups details.qa").Length(); n != 2 {
		t.Errorf("follow-ups = %d, want 2", n)
	}
	if got := doc.Find("#follow-up-1 summary").Text(); got != "Does a member that keeps its partitions also pause?" {
		t.Errorf("follow-up question = %q", got)
	}
	if _, ok := doc.Find("#tier-basics").Attr("checked"); !ok {
		t.Error("basics tier not selected by default")
	}
	if !strings.Contains(doc.Find("#basics .target").Text(), "15 s") {
		t.Errorf("basics target = %q", doc.Find("#basics .target").Text())
	}
	if doc.Find("#explanation script").Length() != 0 {
		t.Fatal("raw <script> from the card reached the page")
	}
	if !strings.Contains(doc.Find("#explanation").Text(), "<script>alert(1)</script>") {
		t.Error("escaped script text not shown")
	}
	if doc.Find("#explanation pre [class]").Length() == 0 || doc.Find("#explanation [style]").Length() != 0 {
		t.Error("code block not highlighted with classes only")
	}
	resp, doc = e.get(e.client(), "/cards/sample-eager?depth=deeper")
	if _, ok := doc.Find("#tier-deeper").Attr("checked"); !ok || resp.StatusCode != 200 {
		t.Error("?depth=deeper did not select the tier")
	}
	if resp, _ := e.get(e.client(), "/cards/no-such-card"); resp.StatusCode != 404 {
		t.Errorf("unknown card: %d", resp.StatusCode)
	}
}

func TestHomeTopicSearch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	e.signedIn("ada", store.RoleAdmin)
	_, doc := e.get(e.client(), "/")
	tile := doc.Find("#topics a.tile")
	want := fmt.Sprintf("%d cards", e.srv.deck().Len())
	if tile.Length() != 1 || tile.Find("strong").Text() != "Test topic" || tile.Find(".count").Text() != want {
		t.Fatalf("home topics wrong: %q, want one tile with %q", tile.Text(), want)
	}
	href, _ := tile.Attr("href")
	_, doc = e.get(e.client(), href)
	if doc.Find("ul.cards a[href='/cards/sample-eager']").Length() != 1 {
		t.Fatal("topic page does not list the card")
	}
	_, doc = e.get(e.client(), "/search?q=SyncGroup")
	if doc.Find("#results a[href='/cards/sample-eager']").Length() != 1 {
		t.Fatalf("search for an answer word missed the card: %s", doc.Find("main").Text())
	}
	_, doc = e.get(e.client(), "/search?q=zookeeper")
	if doc.Find("#results li").Length() != 0 || !strings.HasPrefix(doc.Find("#result-count").Text(), "0 results") {
		t.Fatal("search for an absent word found something")
	}
	resp, doc := e.get(e.client(), "/search?q="+strings.Repeat("x", 300))
	if resp.StatusCode != 200 || doc.Find("main .error").Length() != 1 {
		t.Fatal("over-long search not refused with a message")
	}
}

func TestSecurityBasics(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	e.signedIn("ada", store.RoleAdmin)
	resp, _ := e.get(e.client(), "/")
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("CSP = %q", csp)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") == "" {
		t.Fatal("security headers missing")
	}
	// A cross-site form post is refused (CSRF).
	req, _ := http.NewRequest("POST", e.ts.URL+"/login", strings.NewReader("username=ada&password=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site POST: %d, want 403", resp.StatusCode)
	}
	// Oversized bodies are refused.
	resp, err = http.Post(e.ts.URL+"/login", "application/x-www-form-urlencoded", strings.NewReader("username="+strings.Repeat("a", 2<<20)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("huge body: %d", resp.StatusCode)
	}
}

func TestStaticAssetsHashed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	e.signedIn("ada", store.RoleAdmin)
	_, doc := e.get(e.client(), "/")
	href, _ := doc.Find("link[rel=stylesheet]").First().Attr("href")
	if !strings.HasPrefix(href, "/static/app.") || !strings.HasSuffix(href, ".css") {
		t.Fatalf("stylesheet href %q is not content-hashed", href)
	}
	req, _ := http.NewRequest("GET", e.ts.URL+href, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("asset: %d cache=%q enc=%q", resp.StatusCode, resp.Header.Get("Cache-Control"), resp.Header.Get("Content-Encoding"))
	}
}
