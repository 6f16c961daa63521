package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFoundationFlow: first-run setup, log out, log in, open a card, switch tiers, expand a
// follow-up, search.
func TestFoundationFlow(t *testing.T) {
	parallelTest(t)
	app := StartApp(t, "")
	ctx := Browser(t)

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("setup-submit"), poll),
	); err != nil {
		t.Fatalf("open the app: %v", err)
	}
	if loc := Eval[string](ctx, t, `location.pathname`); loc != "/setup" {
		t.Fatalf("fresh instance opened %s, want the setup page", loc)
	}
	CheckA11y(ctx, t, "setup page")
	// A mismatched repeat re-renders the form with a message; nothing is lost.
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("username"), "ada"),
		chromedp.SendKeys(chromedp.ID("password"), "analytical-engine"),
		chromedp.SendKeys(chromedp.ID("password2"), "analytical-engin"),
		chromedp.Click(chromedp.ID("setup-submit")),
		chromedp.WaitVisible(chromedp.ID("password2-error"), poll),
	); err != nil {
		t.Fatalf("setup with a typo: %v", err)
	}
	if v := Eval[string](ctx, t, `document.getElementById('username').value`); v != "ada" {
		t.Fatalf("username lost after a form error: %q", v)
	}
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("password"), "analytical-engine"),
		chromedp.SendKeys(chromedp.ID("password2"), "analytical-engine"),
		chromedp.Click(chromedp.ID("setup-submit")),
		chromedp.WaitVisible(chromedp.ID("topics"), poll),
	); err != nil {
		t.Fatalf("setup: %v", err)
	}

	// Log out, then back in.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("logout")),
		chromedp.WaitVisible(chromedp.ID("login-link"), poll),
	); err != nil {
		t.Fatalf("logout: %v", err)
	}
	CheckA11y(ctx, t, "home page (signed out)")
	Login(ctx, t, app.URL, "ada", "analytical-engine")
	// The signed-in home, card and search pages are checked by TestUIEveryPageBothSizesBothThemes.

	// Open a topic, then a card from it; switch tiers; expand a follow-up.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/"),
		chromedp.Click(chromedp.CSS("#topics a.tile")),
		chromedp.WaitVisible(chromedp.CSS("ul.cards a"), poll),
		chromedp.Click(chromedp.CSS("ul.cards a")),
		chromedp.WaitVisible(chromedp.ID("question"), poll),
	); err != nil {
		t.Fatalf("open a card: %v", err)
	}
	if q := Eval[string](ctx, t, `document.getElementById('question').textContent`); q == "" {
		t.Fatal("card page has no question")
	}
	visible := `(id) => document.getElementById(id).offsetParent !== null`
	if !Eval[bool](ctx, t, `(`+visible+`)('basics')`) || Eval[bool](ctx, t, `(`+visible+`)('solid')`) {
		t.Fatal("basics tier should show first, solid hidden")
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("label[for=tier-solid]")),
		chromedp.WaitVisible(chromedp.ID("solid"), poll),
	); err != nil {
		t.Fatalf("switch tier: %v", err)
	}
	if Eval[bool](ctx, t, `(`+visible+`)('basics')`) {
		t.Fatal("basics still visible after switching to solid")
	}
	if Eval[bool](ctx, t, `document.getElementById('follow-up-1').open`) {
		t.Fatal("follow-up open before clicking")
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#follow-up-1 summary"))); err != nil {
		t.Fatalf("expand follow-up: %v", err)
	}
	if !Eval[bool](ctx, t, `document.getElementById('follow-up-1').open`) {
		t.Fatal("follow-up did not open")
	}

	// Search finds cards in the bundled deck.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/search"),
		chromedp.SendKeys(chromedp.ID("q"), "cooperative\n"),
		chromedp.WaitVisible(chromedp.ID("result-count"), poll),
	); err != nil {
		t.Fatalf("search: %v", err)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#results li').length`); n == 0 {
		t.Fatal("search for 'cooperative' found nothing")
	}
	if txt := Eval[string](ctx, t, `document.getElementById('result-count').textContent`); !strings.Contains(txt, "cooperative") {
		t.Fatalf("result count line %q does not echo the query", txt)
	}
}
