package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTeamFlow: the admin creates an invite, a new member signs up through the link, studies a
// card on the /study page, is refused on the admin page, and the admin sees the activity on the
// team view.
func TestTeamFlow(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "internal/server tests invites and roles; TestUIEveryPageBothSizesBothThemes opens the team and admin pages")
	app := StartApp(t, "")
	AddUser(t, app.DataDir, "ada", "analytical-engine", true)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "ada", "analytical-engine")

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/admin"),
		chromedp.WaitVisible(chromedp.ID("invite-create"), poll),
		chromedp.SendKeys(chromedp.ID("invite-for"), "grace\nlin@example.com"),
	); err != nil {
		t.Fatalf("open the invite form: %v", err)
	}
	screenshots(ctx, t, "invite-form")
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("invite-create")),
		chromedp.WaitVisible(chromedp.ID("created-link-1"), poll),
	); err != nil {
		t.Fatalf("create two invites: %v", err)
	}
	link := Eval[string](ctx, t, `document.getElementById('created-link-0').value`)
	CheckA11y(ctx, t, "the invite link page")
	screenshots(ctx, t, "invite-links")
	// No --base-url: the link is still absolute, on the address the admin's browser uses.
	if !strings.HasPrefix(link, app.URL+"/invite/") {
		t.Fatalf("invite link %q without --base-url, want an absolute link on %s", link, app.URL)
	}
	// The copy button puts the link on the clipboard's behalf and says so.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-copy="created-link-0"]`))); err != nil {
		t.Fatalf("copy button: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('button[data-copy="created-link-0"]').textContent === "Copied"`)); err != nil {
		t.Fatalf("the copy button did not say Copied: %v", err)
	}

	// The new member uses the link in a signed-out browser.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/"),
		chromedp.Click(chromedp.ID("logout")),
		chromedp.WaitVisible(chromedp.ID("login-link"), poll),
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.ID("signup-submit"), poll),
	); err != nil {
		t.Fatalf("open the invite: %v", err)
	}
	CheckA11y(ctx, t, "the sign-up page")
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("username"), "grace"),
		chromedp.SendKeys(chromedp.ID("password"), "compiler-1952"),
		chromedp.SendKeys(chromedp.ID("password2"), "compiler-1952"),
		chromedp.Click(chromedp.ID("signup-submit")),
		chromedp.WaitVisible(chromedp.ID("logout"), poll),
	); err != nil {
		t.Fatalf("sign up through the invite: %v", err)
	}
	if name := Eval[string](ctx, t, `document.querySelector('a[href="/account"]').textContent`); name != "grace" {
		t.Fatalf("signed in as %q after sign-up", name)
	}

	// Study one card through the page's buttons.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/study"),
		chromedp.WaitVisible(chromedp.ID("reveal"), poll),
	); err != nil {
		t.Fatalf("open study: %v", err)
	}
	card := Eval[string](ctx, t, `document.getElementById('study').dataset.card`)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("reveal")),
		chromedp.WaitVisible(chromedp.ID("rate-3"), poll),
		chromedp.Click(chromedp.ID("rate-3")),
		chromedp.WaitVisible(chromedp.ID("undo"), poll),
	); err != nil {
		t.Fatalf("rate a card: %v", err)
	}

	// Members are refused on the admin page.
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/admin"), chromedp.WaitVisible(chromedp.CSS("main h1"), poll)); err != nil {
		t.Fatal(err)
	}
	if h := Eval[string](ctx, t, `document.querySelector('main h1').textContent`); h != "Forbidden" {
		t.Fatalf("member on /admin saw %q", h)
	}
	if resp, err := opsClient().Get(app.URL + "/admin"); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("/admin without a session: %v %v, want a redirect to log in", resp, err)
	} else {
		resp.Body.Close()
	}

	// The admin sees grace's answer on the team view.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/"),
		chromedp.Click(chromedp.ID("logout")),
		chromedp.WaitVisible(chromedp.ID("login-link"), poll),
	); err != nil {
		t.Fatal(err)
	}
	Login(ctx, t, app.URL, "ada", "analytical-engine")
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/team"),
		chromedp.WaitVisible(chromedp.ID("team-members"), poll),
	); err != nil {
		t.Fatalf("team view: %v", err)
	}
	CheckA11y(ctx, t, "the team view")
	if n := Eval[string](ctx, t, `document.querySelector('#team-members tr[data-member="grace"] .r7').textContent`); n != "1" {
		t.Fatalf("grace's reviews in 7 days = %q, want 1", n)
	}
	cell := `document.querySelector('#coverage tr[data-card="` + card + `"] td[data-member="grace"]')`
	if txt := Eval[string](ctx, t, cell+`.textContent.trim()`); txt == "" || txt == "–" {
		t.Fatalf("coverage cell for %s shows %q", card, txt)
	}
	if title := Eval[string](ctx, t, cell+`.title`); !strings.Contains(title, "grace · "+card) {
		t.Fatalf("coverage cell title %q", title)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#weakest li').length`); n != 1 {
		t.Fatalf("weakest cards listed: %d, want 1", n)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/admin"), chromedp.WaitVisible(chromedp.ID("users"), poll)); err != nil {
		t.Fatal(err)
	}
	// The admin page (its accessibility is checked by TestUIEveryPageBothSizesBothThemes) lists
	// the new member.
	if names := Eval[string](ctx, t, `[...document.querySelectorAll('#users td.name')].map(td => td.textContent).sort().join(',')`); names != "ada,grace" {
		t.Fatalf("the admin page lists %q, want ada,grace", names)
	}
}
