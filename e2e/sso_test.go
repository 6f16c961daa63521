package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/rehearse/rehearse/internal/sso/ssotest"
)

// TestOIDCSignInAsMember: with an OpenID Connect provider configured (zitadel's op, running in
// this test process), the login page offers it; a person the instance has never seen signs in
// at the provider and lands on the home page with a member account of their own.
func TestOIDCSignInAsMember(t *testing.T) {
	parallelTest(t)
	provider := ssotest.Start(t, ssotest.User{ID: "u-lin", Username: "lin", Email: "lin@example.com", EmailVerified: true})
	dataDir := t.TempDir()
	AddUser(t, dataDir, "ada", "analytical-engine", true)
	// The callback address is known only once the app listens, so the client is registered
	// after it starts (before anyone signs in), with the same secret it was started with.
	app := StartApp(t, dataDir, "--oidc-issuer", provider.URL, "--oidc-client-id", "rehearse-e2e-1",
		"--oidc-client-secret", "client-secret", "--oidc-name", "Zitadel")
	provider.RegisterID("rehearse-e2e-1", app.URL+"/auth/oidc/callback")
	ctx := Browser(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/login"),
		chromedp.WaitVisible(chromedp.ID("sso-submit"), poll),
	); err != nil {
		t.Fatalf("open the login page: %v", err)
	}
	if label := Eval[string](ctx, t, `document.getElementById('sso-submit').textContent`); label != "Sign in with Zitadel" {
		t.Fatalf("the login page's button says %q", label)
	}
	screenshots(ctx, t, "login-sso")
	step, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(step,
		chromedp.Click(chromedp.ID("sso-submit")),
		chromedp.WaitVisible(chromedp.CSS(`form[action="/login/username"] input[name="password"]`), poll),
	); err != nil {
		t.Fatalf("go to the provider: %v; at %s: %s", err, Eval[string](ctx, t, `location.href`), Eval[string](ctx, t, `document.body.innerText`))
	}
	if u := Eval[string](ctx, t, `location.origin`); u != provider.URL {
		t.Fatalf("the sign-in button led to %s, not the provider %s", u, provider.URL)
	}
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="username"]`), "lin"),
		chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), ssotest.Password),
		chromedp.Submit(chromedp.CSS(`input[name="password"]`)),
		chromedp.WaitVisible(chromedp.ID("logout"), poll),
	); err != nil {
		t.Fatalf("sign in at the provider: %v", err)
	}
	if path := Eval[string](ctx, t, `location.href`); path != app.URL+"/" {
		t.Fatalf("landed on %s, want the home page", path)
	}
	if name := Eval[string](ctx, t, `document.querySelector('a[href="/account"]').textContent`); name != "lin" {
		t.Fatalf("signed in as %q", name)
	}
	// A member: the admin page is refused.
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/admin"), chromedp.WaitVisible(chromedp.CSS("main h1"), poll)); err != nil {
		t.Fatal(err)
	}
	if h := Eval[string](ctx, t, `document.querySelector('main').textContent`); !strings.Contains(h, "Only administrators") {
		t.Fatalf("the new account opened /admin: %q", h)
	}
}

// TestAuthProxyHeaderOnlyFromTrustedProxies: a Remote-User header sent by a browser straight
// to the app (not from --trusted-proxies) signs nobody in; the same header from a trusted
// proxy address signs that user in.
func TestAuthProxyHeaderOnlyFromTrustedProxies(t *testing.T) {
	parallelTest(t)
	forged := StartApp(t, "", "--auth-proxy-header", "Remote-User", "--trusted-proxies", "10.9.9.9")
	AddUser(t, forged.DataDir, "ada", "analytical-engine", true)
	ctx := Browser(t)
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Remote-User": "ada"}}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(forged.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("login-link"), poll),
	); err != nil {
		t.Fatalf("a forged Remote-User from a non-proxy address: %v", err)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#logout').length`); n != 0 {
		t.Fatal("a forged Remote-User signed the browser in")
	}

	// The browser connects from 127.0.0.1: trusted here, as a proxy on the same host would be.
	proxied := StartApp(t, "", "--auth-proxy-header", "Remote-User", "--trusted-proxies", "127.0.0.1")
	AddUser(t, proxied.DataDir, "ada", "analytical-engine", true)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(proxied.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("logout"), poll),
	); err != nil {
		t.Fatalf("Remote-User from a trusted proxy: %v", err)
	}
	if name := Eval[string](ctx, t, `document.querySelector('a[href="/account"]').textContent`); name != "ada" {
		t.Fatalf("signed in as %q", name)
	}
}
