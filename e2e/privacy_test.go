package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestTeamPrivateUntilShared: a member's recall is not on another member's team view until
// they share it from their account; the admin sees it all along. The first sign-in takes the
// browser's time zone.
func TestTeamPrivateUntilShared(t *testing.T) {
	parallelTest(t)
	app := StartApp(t, "")
	AddUser(t, app.DataDir, "ada", "analytical-engine", true)
	AddUser(t, app.DataDir, "bob", "bob-password-1", false)
	AddUser(t, app.DataDir, "carol", "carol-password-1", false)

	bob := Browser(t)
	if _, err := chromedp.Call(bob, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"}); err != nil {
		t.Fatal(err)
	}
	Login(bob, t, app.URL, "bob", "bob-password-1")
	if err := chromedp.Do(bob,
		chromedp.Navigate(app.URL+"/study"),
		chromedp.WaitVisible(chromedp.ID("reveal"), poll),
		chromedp.Click(chromedp.ID("reveal")),
		chromedp.WaitVisible(chromedp.ID("rate-3"), poll),
		chromedp.Click(chromedp.ID("rate-3")),
		chromedp.WaitVisible(chromedp.ID("undo"), poll),
		chromedp.Navigate(app.URL+"/settings"),
		chromedp.WaitVisible(chromedp.ID("timezone"), poll),
	); err != nil {
		t.Fatalf("bob studies a card: %v", err)
	}
	if tz := Eval[string](bob, t, `document.getElementById('timezone').value`); tz != "Asia/Tokyo" {
		t.Fatalf("bob's time zone after his first sign-in: %q, want the browser's Asia/Tokyo", tz)
	}

	carol := Browser(t)
	Login(carol, t, app.URL, "carol", "carol-password-1")
	teamRows := func() []string {
		t.Helper()
		if err := chromedp.Do(carol, chromedp.Navigate(app.URL+"/team"), chromedp.WaitVisible(chromedp.ID("team-who"), poll)); err != nil {
			t.Fatal(err)
		}
		return Eval[[]string](carol, t, `[...document.querySelectorAll('#team-members tbody tr, #coverage thead th.member')].map(e => e.dataset.member || e.textContent.trim())`)
	}
	for _, who := range teamRows() {
		if who == "bob" {
			t.Fatalf("carol sees bob's figures before he shares: %v", who)
		}
	}
	screenshots(carol, t, "team-member-view")

	if err := chromedp.Do(bob,
		chromedp.Navigate(app.URL+"/account"),
		chromedp.WaitVisible(chromedp.ID("share"), poll),
		chromedp.Click(chromedp.ID("share")),
		chromedp.Click(chromedp.ID("team-save")),
		// The attribute (not the property a click sets) comes from the page after the save.
		chromedp.WaitVisible(chromedp.CSS("#share[checked]"), poll),
	); err != nil {
		t.Fatalf("bob shares: %v", err)
	}
	seen := 0
	for _, who := range teamRows() {
		if who == "bob" {
			seen++
		}
	}
	if seen != 2 { // his activity row and his coverage column
		t.Fatalf("carol sees bob %d times after he shares, want his row and his column", seen)
	}
	ada := Browser(t)
	Login(ada, t, app.URL, "ada", "analytical-engine")
	if err := chromedp.Do(ada, chromedp.Navigate(app.URL+"/team"), chromedp.WaitVisible(chromedp.ID("team-who"), poll)); err != nil {
		t.Fatal(err)
	}
	if n := Eval[int](ada, t, `document.querySelectorAll('#team-members tbody tr').length`); n != 3 {
		t.Fatalf("the admin sees %d members, want all 3", n)
	}
	screenshots(ada, t, "team-admin-view")
}
