package server

import (
	"context"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/sso/ssotest"
	"github.com/rehearse/rehearse/internal/store"
)

// oidcSignIn runs the whole sign-in as a browser would: our start URL, the provider's login
// form, back to our callback. It returns the callback's answer.
func (e *testEnv) oidcSignIn(p *ssotest.Provider, c *http.Client, user string) *http.Response {
	e.t.Helper()
	resp, _ := e.get(c, "/auth/oidc?next=/stats")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), p.URL) {
		e.t.Fatalf("/auth/oidc: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	back := p.SignIn(context.Background(), e.t, resp.Header.Get("Location"), e.ts.URL+oidcCallback, user)
	resp, _ = e.get(c, back.RequestURI())
	return resp
}

func oidcEnv(t *testing.T, mode sso.Accounts, users ...ssotest.User) (*testEnv, *ssotest.Provider) {
	p := ssotest.Start(t, users...)
	// The provider signs tokens with the real clock; ours checks them against e.now.
	var e *testEnv
	id := "server-" + t.Name()
	client := sso.New(sso.Config{Issuer: p.URL, ClientID: id, ClientSecret: "client-secret", AdminGroup: "rehearse-admins"},
		func() time.Time { return e.now })
	e = newEnv(t, Config{OIDC: client, OIDCName: "Example", OIDCAccounts: mode, NoPasswords: true})
	e.now = time.Now()
	p.RegisterID(id, e.ts.URL+oidcCallback) // the callback's address is known once the server listens
	return e, p
}

func TestOIDCLinksByVerifiedEmailAndFollowsAdminGroup(t *testing.T) {
	e, p := oidcEnv(t, sso.Link,
		ssotest.User{ID: "s-1", Username: "ada.l", Email: "Ada@Example.com", EmailVerified: true, Groups: []string{"rehearse-admins"}},
		ssotest.User{ID: "s-2", Username: "bob", Email: "bob@example.com", EmailVerified: true},
		ssotest.User{ID: "s-3", Username: "eve", Email: "carol@example.com", EmailVerified: false})
	ctx := context.Background()
	ada, _ := e.db.CreateUser(ctx, "ada", dummyHash, store.RoleMember, e.now)
	e.db.CreateUser(ctx, "root", dummyHash, store.RoleAdmin, e.now)
	carol, _ := e.db.CreateUser(ctx, "carol", dummyHash, store.RoleMember, e.now)
	e.db.SetEmail(ctx, ada.ID, "ada@example.com")
	e.db.SetEmail(ctx, carol.ID, "carol@example.com")

	c := e.client()
	resp := e.oidcSignIn(p, c, "ada.l")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/stats" {
		t.Fatalf("callback: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, doc := e.get(c, "/"); doc.Find(`a[href="/account"]`).Text() != "ada" {
		t.Fatal("the verified email did not link the sign-in to ada's account")
	}
	if u, _ := e.db.UserByName(ctx, "ada"); u.Role != store.RoleAdmin {
		t.Fatalf("ada is in the admin group, role %s", u.Role)
	}
	// Link mode: someone without an account is refused; an unverified email links nothing.
	for _, who := range []string{"bob", "eve"} {
		if resp := e.oidcSignIn(p, e.client(), who); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%s without an account in link mode: %d", who, resp.StatusCode)
		}
	}
	// Passwords are off: even a right one is refused.
	if resp, _ := e.post(e.client(), "/login", url.Values{"username": {"root"}, "password": {"not a real password"}}); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("password login with passwords off: %d", resp.StatusCode)
	}
}

func TestOIDCCreatesMembersAndChecksTheBrowser(t *testing.T) {
	e, p := oidcEnv(t, sso.Create, ssotest.User{ID: "s-9", Username: "lin@corp.example", Email: "lin@corp.example", EmailVerified: true})
	e.db.CreateUser(context.Background(), "root", dummyHash, store.RoleAdmin, e.now)
	// A callback in a browser that did not start the sign-in (no flow cookie) signs nobody in.
	resp, _ := e.get(e.client(), "/auth/oidc")
	back := p.SignIn(context.Background(), t, resp.Header.Get("Location"), e.ts.URL+oidcCallback, "lin@corp.example")
	stranger := e.client()
	if resp, doc := e.get(stranger, back.RequestURI()); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(doc.Find("#form-error").Text(), "not started from this browser") {
		t.Fatalf("callback without the flow cookie: %d", resp.StatusCode)
	}
	c := e.client()
	if resp := e.oidcSignIn(p, c, "lin@corp.example"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("callback: %d", resp.StatusCode)
	}
	u, err := e.db.UserByName(context.Background(), "lin")
	if err != nil || u.Role != store.RoleMember || u.PasswordHash != "" {
		t.Fatalf("new account: %+v, %v", u, err)
	}
	// Signing in again uses the same account.
	if resp := e.oidcSignIn(p, e.client(), "lin@corp.example"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("second sign-in: %d", resp.StatusCode)
	}
	if n, _ := e.db.CountUsers(context.Background()); n != 2 {
		t.Fatalf("%d accounts after two sign-ins of one person, want 2", n)
	}
}

// headerClient adds headers to every request, as a proxy in front would.
type headerClient struct {
	h    http.Header
	next http.RoundTripper
}

func (h headerClient) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h.h {
		r.Header[k] = v
	}
	return h.next.RoundTrip(r)
}

func sessionSet(resp *http.Response) string {
	for _, c := range resp.Cookies() {
		if c.Name == sessionCookie && c.Value != "" {
			return c.Value
		}
	}
	return ""
}

func TestAuthProxySessionsRotateAndCSRFHolds(t *testing.T) {
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	e := newEnv(t, Config{AuthProxyHeader: "Remote-User", AuthProxyEmailHeader: "Remote-Email", TrustedProxies: loopback})
	e.db.CreateUser(context.Background(), "root", dummyHash, store.RoleAdmin, e.now)
	h := http.Header{"Remote-User": {"grace"}, "Remote-Email": {"grace@example.com"}}
	c := e.client()
	c.Transport = headerClient{h, http.DefaultTransport}

	resp, doc := e.get(c, "/")
	first := sessionSet(resp)
	if first == "" || doc.Find(`a[href="/account"]`).Text() != "grace" {
		t.Fatalf("Remote-User from a trusted proxy: session %q, signed in as %q", first, doc.Find(`a[href="/account"]`).Text())
	}
	if resp, _ := e.get(c, "/"); sessionSet(resp) != "" {
		t.Fatal("a new session on every request of the same user")
	}
	// The proxy now names someone else: a new session replaces the old one, which ends.
	h.Set("Remote-User", "root")
	h.Del("Remote-Email")
	resp, doc = e.get(c, "/")
	second := sessionSet(resp)
	if second == "" || second == first || doc.Find(`a[href="/account"]`).Text() != "root" {
		t.Fatalf("another proxy user: session %q (was %q), signed in as %q", second, first, doc.Find(`a[href="/account"]`).Text())
	}
	old := e.client()
	old.Jar.SetCookies(mustURL(t, e.ts.URL), []*http.Cookie{{Name: sessionCookie, Value: first}})
	if _, doc := e.get(old, "/"); doc.Find("#logout").Length() != 0 {
		t.Fatal("the replaced session still works")
	}
	// The cross-origin check still runs for proxied requests.
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/logout", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if resp, err := c.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site POST through the proxy: %v %v", resp.StatusCode, err)
	}

	// From an address that is not a trusted proxy the header signs nobody in.
	f := newEnv(t, Config{AuthProxyHeader: "Remote-User", TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	f.db.CreateUser(context.Background(), "root", dummyHash, store.RoleAdmin, f.now)
	fc := f.client()
	fc.Transport = headerClient{http.Header{"Remote-User": {"root"}}, http.DefaultTransport}
	if resp, doc := f.get(fc, "/"); sessionSet(resp) != "" || doc.Find("#logout").Length() != 0 {
		t.Fatal("a forged Remote-User from an untrusted address signed in")
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestAdminSetsEmails(t *testing.T) {
	e := newEnv(t, Config{})
	admin := e.signedIn("root", store.RoleAdmin)
	ada, _ := e.db.CreateUser(context.Background(), "ada", dummyHash, store.RoleMember, e.now)
	path := "/admin/users/" + strconv.FormatInt(ada.ID, 10) + "/email"
	if resp, _ := e.post(admin, path, url.Values{"email": {"ada@example.com"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("set an email: %d", resp.StatusCode)
	}
	if u, err := e.db.UserByEmail(context.Background(), "ADA@example.com"); err != nil || u.ID != ada.ID {
		t.Fatalf("ada's email: %v %v", u, err)
	}
	if resp, doc := e.post(admin, path, url.Values{"email": {"not an address"}}); resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find("#form-error").Text(), "does not look like") {
		t.Fatalf("a bad email: %d", resp.StatusCode)
	}
	me, _ := e.db.UserByName(context.Background(), "root")
	if resp, _ := e.post(admin, "/admin/users/"+strconv.FormatInt(me.ID, 10)+"/email", url.Values{"email": {"ada@example.com"}}); resp.StatusCode != http.StatusConflict {
		t.Fatalf("an email another account has: %d", resp.StatusCode)
	}
	if resp, _ := e.post(e.signedIn("bob", store.RoleMember), path, url.Values{"email": {"bob@example.com"}}); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a member setting an email: %d", resp.StatusCode)
	}
}

func TestFirstSignInTakesTheBrowserTimezone(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("lin", store.RoleMember)
	u, _ := e.db.UserByName(context.Background(), "lin")
	var asked bool
	for _, ck := range c.Jar.Cookies(mustURL(t, e.ts.URL)) {
		asked = asked || (ck.Name == tzCookie && ck.Value == "ask")
	}
	if !asked {
		t.Fatal("the first sign-in does not ask for the browser's time zone")
	}
	if resp, _ := e.post(c, "/account/timezone", url.Values{"tz": {"Mars/Olympus"}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("an unknown zone: %d", resp.StatusCode)
	}
	if resp, _ := e.post(c, "/account/timezone", url.Values{"tz": {"Asia/Tokyo"}}); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the browser's zone: %d", resp.StatusCode)
	}
	if u, _ = e.db.UserByID(context.Background(), u.ID); u.Settings.TimeZone != "Asia/Tokyo" {
		t.Fatalf("zone after the first sign-in: %s", u.Settings.TimeZone)
	}
	// Only the first time: the next browser's zone does not overwrite it (it is edited on /settings).
	e.post(c, "/account/timezone", url.Values{"tz": {"Europe/Paris"}})
	if u, _ = e.db.UserByID(context.Background(), u.ID); u.Settings.TimeZone != "Asia/Tokyo" {
		t.Fatalf("zone after a second post: %s", u.Settings.TimeZone)
	}
	c2 := e.client()
	e.post(c2, "/login", url.Values{"username": {"lin"}, "password": {"not a real password"}})
	for _, ck := range c2.Jar.Cookies(mustURL(t, e.ts.URL)) {
		if ck.Name == tzCookie {
			t.Fatal("a later sign-in asks again")
		}
	}
}
