package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestInterviewDateInBrowser: an interview date set on the settings page turns the home page
// into a countdown with the new cards paced to it; clearing the date removes both.
func TestInterviewDateInBrowser(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	AddUser(t, dir, "ida", "interview-pass-1", false)
	app := StartApp(t, dir)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "ida", "interview-pass-1")

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/settings"),
		chromedp.WaitVisible(chromedp.ID("interview_date"), poll),
	); err != nil {
		t.Fatalf("open /settings: %v", err)
	}
	zone := Eval[string](ctx, t, `document.getElementById('timezone').value`)
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatalf("time zone %q: %v", zone, err)
	}
	now := time.Now().In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	if now.Hour() < 4 { // the study day starts at 04:00
		today = today.AddDate(0, 0, -1)
	}
	date := today.AddDate(0, 0, 12).Format(time.DateOnly)
	setDate := func(v string) {
		t.Helper()
		Eval[bool](ctx, t, fmt.Sprintf(`(document.getElementById('interview_date').value = %q, true)`, v))
		if err := chromedp.Do(ctx,
			chromedp.Click(chromedp.ID("settings-submit")),
			chromedp.WaitVisible(chromedp.ID("saved"), poll),
		); err != nil {
			t.Fatalf("save date %q: %v", v, err)
		}
	}
	setDate(date)
	screenshots(ctx, t, "settings-date")

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("countdown"), poll),
	); err != nil {
		t.Fatalf("home with a date: %v", err)
	}
	msg := strings.TrimSpace(Eval[string](ctx, t, `document.getElementById('countdown').textContent`))
	m := regexp.MustCompile(`^12 days to go: (\d+) cards to learn, (\d+) a day\.$`).FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("countdown %q", msg)
	}
	var unseen, perDay int
	fmt.Sscan(m[1], &unseen)
	fmt.Sscan(m[2], &perDay)
	if want := max(10, (unseen+8)/9); perDay != min(want, unseen) {
		t.Errorf("countdown says %d a day for %d cards in 9 days (limit 10), want %d", perDay, unseen, min(want, unseen))
	}
	newNow := strings.TrimSpace(Eval[string](ctx, t, `document.getElementById('new-now').textContent`))
	if newNow != fmt.Sprintf("%d new", perDay) {
		t.Errorf("home offers %q today, want %d new", newNow, perDay)
	}
	screenshots(ctx, t, "home-date")

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/settings"),
		chromedp.WaitVisible(chromedp.ID("interview_date"), poll),
	); err != nil {
		t.Fatal(err)
	}
	setDate("")
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("now"), poll),
	); err != nil {
		t.Fatal(err)
	}
	if Eval[bool](ctx, t, `document.getElementById('countdown') !== null`) {
		t.Error("countdown still shown after the date was removed")
	}
	if got := strings.TrimSpace(Eval[string](ctx, t, `document.getElementById('new-now').textContent`)); got != "10 new" {
		t.Errorf("after removing the date home offers %q, want the setting's 10 new", got)
	}
}
