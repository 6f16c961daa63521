package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
)

// TestInterviewDateInBrowser: an interview date set on the settings page turns the home page
// into a countdown with the new cards paced to it; clearing the date removes both.
func TestInterviewDateInBrowser(t *testing.T) {
	parallelTest(t)
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

// TestFitToMyReviewsInBrowser: with a year of a slow-forgetting learner's answers stored, "Fit to
// my reviews" runs in the background, the page reports the outcome on held-out cards, and
// "Revert the last fit" puts the defaults back.
func TestFitToMyReviewsInBrowser(t *testing.T) {
	parallelTest(t)
	dir := t.TempDir()
	AddUser(t, dir, "fay", "fitting-pass-1", false)
	seedLearner(t, dir, "fay")
	app := StartApp(t, dir)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "fay", "fitting-pass-1")

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/settings"),
		chromedp.WaitVisible(chromedp.ID("fit-start"), poll),
	); err != nil {
		t.Fatalf("open /settings: %v", err)
	}
	if Eval[bool](ctx, t, `document.getElementById('fit-start').disabled`) {
		t.Fatalf("fit disabled with a year of answers: %s", Eval[string](ctx, t, `document.getElementById('fit').textContent`))
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("fit-start")),
		chromedp.WaitVisible(chromedp.ID("fit-notice"), poll),
	); err != nil {
		t.Fatalf("start the fit: %v", err)
	}
	// Wait for the fit to end by fetching the page in the background (a reload for each look
	// would lay out and paint it every time), then open it as the user would.
	awaitJS[string](ctx, t, `(async () => {
		for (const end = performance.now() + 180000; performance.now() < end; await new Promise(r => setTimeout(r, 300))) {
			const page = new DOMParser().parseFromString(await (await fetch('/settings')).text(), 'text/html');
			const s = page.getElementById('fit-status');
			if (s && s.dataset.status !== 'running') return s.dataset.status;
		}
		return 'running';
	})()`)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/settings"),
		chromedp.WaitVisible(chromedp.ID("fit-status"), poll),
	); err != nil {
		t.Fatal(err)
	}
	status := Eval[string](ctx, t, `document.getElementById('fit-status').dataset.status`)
	text := Eval[string](ctx, t, `document.getElementById('fit-status').textContent`)
	if status != "applied" || !strings.Contains(text, "in use") {
		t.Fatalf("fit ended %q: %s", status, text)
	}
	Eval[bool](ctx, t, `(document.getElementById('fit').scrollIntoView(), true)`)
	screenshots(ctx, t, "settings-fit")
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("fit-revert")),
		chromedp.WaitVisible(chromedp.ID("fit-notice"), poll),
	); err != nil {
		t.Fatalf("revert: %v", err)
	}
	if Eval[bool](ctx, t, `document.getElementById('fit-revert') !== null`) {
		t.Error("revert still offered after reverting")
	}
}

// seedLearner stores 150 days of a simulated slow-forgetting learner's answers as name's own.
func seedLearner(t *testing.T, dir, name string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "rehearse.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u, err := db.UserByName(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	slow := [21]float64{1.2, 3.5, 9, 25, 5.2, 0.6, 2.2, 0.01, 2.2, 0.12, 1.2, 1.1, 0.08, 0.35, 1.3, 0.5, 2.4, 0.4, 0.2, 0.1, 0.35}
	sc := srs.DefaultScheduler()
	l := srs.Learner{Memory: slow, Scheduler: sc, Cards: 500, NewPerDay: 10, Days: 150, Seed: 9,
		Start: time.Now().AddDate(0, 0, -151)}
	states := map[string]srs.Card{}
	for _, a := range l.Simulate() {
		before := states[a.CardID]
		after := sc.ReviewCard(a.CardID, before, a.Rating, a.Time)
		if _, err := db.RecordReview(ctx, u.ID, a.CardID, before, after, a.Rating, a.Time, 1000, store.ModeStudy); err != nil {
			t.Fatal(err)
		}
		states[a.CardID] = after
	}
}
