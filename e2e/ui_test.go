package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
)

// The layouts every page must work in: a phone held upright and a laptop.
var uiSizes = []uiSize{{"390x844", 390, 844}, {"1280x800", 1280, 800}}

type uiSize struct {
	name string
	w, h int64
}

// uiPage is a page to check: where to go and what to do there first.
type uiPage struct {
	name string
	open func(ctx context.Context, t *testing.T, base string)
}

// setTheme makes the browser prefer a colour scheme, as a device in dark mode would.
func setTheme(ctx context.Context, t *testing.T, scheme string) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	}))
	if err != nil {
		t.Fatalf("emulate %s: %v", scheme, err)
	}
}

func visit(path string, waitID string) func(context.Context, *testing.T, string) {
	return func(ctx context.Context, t *testing.T, base string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.ID(waitID), poll)); err != nil {
			t.Fatalf("open %s: %v", path, err)
		}
	}
}

// revealStudy opens /study and reveals the card's answer.
func revealStudy(ctx context.Context, t *testing.T, base string) {
	t.Helper()
	visit("/study", "reveal")(ctx, t, base)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("reveal")), chromedp.WaitVisible(chromedp.ID("rate-form"), poll)); err != nil {
		t.Fatalf("reveal: %v", err)
	}
}

// TestUIEveryPageBothSizesBothThemes opens every page at phone and desktop size in the light and
// the dark theme and checks: no sideways scrolling of the page itself, a one-row header no taller
// than 64 px, a dark background in dark mode, no axe-core violation of any impact (contrast
// included), on a phone touch targets of 44 px, and on the revealed study page a rating bar on
// screen and at most a fifth of its height. The axe-core check runs in all four ways only in a
// full run (REHEARSE_E2E_FULL=1, as ./scripts/test sets), in one way per page otherwise. With
// UI_SHOTS=DIR it also saves a full-page screenshot of each.
func TestUIEveryPageBothSizesBothThemes(t *testing.T) {
	parallelTest(t)
	dir := t.TempDir()
	AddUser(t, dir, "uma", "ui-pages-pass", true)
	app := StartApp(t, dir)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "uma", "ui-pages-pass")
	d, err := deck.Load(content.FS, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	topic := d.Topics()[0]
	shots := os.Getenv("UI_SHOTS")

	pages := []uiPage{
		{"home", visit("/", "topics")},
		{"topic", visit("/topics/"+topic.Slug, "main")},
		{"card", visit("/cards/"+topic.Cards[0].ID, "question")},
		{"card-sim", visit("/cards/rebalance-triggers", "simulation")},
		{"search", visit("/search?q=rebalnce+storm", "results")},
		{"study-front", visit("/study", "reveal")},
		{"study-revealed", revealStudy},
		{"stats", visit("/stats", "forecast")},
		{"settings", visit("/settings", "settings-form")},
		{"account", visit("/account", "appearance")},
		{"mock-question", func(ctx context.Context, t *testing.T, base string) {
			if err := chromedp.Do(ctx,
				chromedp.Navigate(base+"/mock/new?seed=2026&n=1&clock=soft"),
				chromedp.WaitVisible(chromedp.ID("mock-start"), poll),
				chromedp.Click(chromedp.ID("mock-start")),
				chromedp.WaitVisible(chromedp.ID("typed"), poll),
			); err != nil {
				t.Fatalf("start a mock: %v", err)
			}
		}},
		{"mock-check", func(ctx context.Context, t *testing.T, base string) {
			if err := chromedp.Do(ctx,
				chromedp.SendKeys(chromedp.ID("typed"), "Every member gives up its partitions and the group waits."),
				chromedp.Click(chromedp.ID("answer-submit")),
				chromedp.WaitVisible(chromedp.ID("mock-review"), poll),
			); err != nil {
				t.Fatalf("answer the mock question: %v", err)
			}
		}},
		{"mock-summary", func(ctx context.Context, t *testing.T, base string) {
			if err := chromedp.Do(ctx, chromedp.KeyEvent("3"), chromedp.WaitVisible(chromedp.ID("overall-score"), poll)); err != nil {
				t.Fatalf("rate the mock answer: %v", err)
			}
		}},
		{"mock-history", visit("/mock/history", "history")},
		{"lab", visit("/sim", "main")},
		{"team", visit("/team", "main")},
		{"admin", visit("/admin", "main")},
		{"import", visit("/admin/import", "main")},
		// A card the user has answered: its progress panel with the state and the history table.
		{"card-studied", func(ctx context.Context, t *testing.T, base string) {
			revealStudy(ctx, t, base)
			id := Eval[string](ctx, t, `document.querySelector('#rate-form input[name="card"]').value`)
			if err := chromedp.Do(ctx,
				chromedp.Click(chromedp.ID("rate-3")),
				chromedp.WaitNotPresent(`#rate-form input[name="card"][value="`+id+`"]`, poll),
			); err != nil {
				t.Fatalf("answer a card: %v", err)
			}
			visit("/cards/"+id, "history")(ctx, t, base)
		}},
	}

	// checkThemes checks the open page at one size in both themes, schemes[0] (the one it is
	// in) first, then switched in place, as a device changing its setting does (the page
	// follows it: CSS media queries, and app.js relabels the toggle). axe(k) says whether
	// axe-core checks it in schemes[k].
	checkThemes := func(t *testing.T, p uiPage, size uiSize, schemes []string, axe func(k int) bool) {
		t.Helper()
		for k, scheme := range schemes {
			setTheme(ctx, t, scheme)
			what := fmt.Sprintf("%s at %s, %s", p.name, size.name, scheme)
			checkLayout(ctx, t, what, size.h, scheme == "dark")
			if size.w < 600 {
				checkTouchTargets(ctx, t, what)
			}
			if p.name == "study-revealed" {
				checkRatingBar(ctx, t, what)
			}
			if p.name == "card-studied" {
				checkHistoryFits(ctx, t, what)
			}
			if axe(k) {
				CheckA11yAll(ctx, t, what)
			}
			if shots != "" {
				saveShot(ctx, t, filepath.Join(shots, fmt.Sprintf("%s-%s-%s.png", p.name, size.name, scheme)))
			}
		}
	}
	// open opens page i at a size, in the theme it alternates on (so both themes are also seen
	// from a fresh load), with every disclosure open so what hides behind them is checked too.
	// It returns the themes in the order to check them.
	open := func(t *testing.T, i int, size uiSize) []string {
		t.Helper()
		schemes := []string{"light", "dark"}
		if i%2 == 1 {
			schemes[0], schemes[1] = schemes[1], schemes[0]
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h)); err != nil {
			t.Fatal(err)
		}
		setTheme(ctx, t, schemes[0])
		pages[i].open(ctx, t, app.URL)
		Eval[bool](ctx, t, `(document.querySelectorAll('details').forEach(d => d.open = true), true)`)
		return schemes
	}
	always := func(int) bool { return true }

	if fullRun() {
		// Every page opened afresh at each size, axe-core in all four ways.
		for _, size := range uiSizes {
			t.Run(size.name, func(t *testing.T) {
				for i, p := range pages {
					checkThemes(t, p, size, open(t, i, size), always)
				}
			})
		}
		return
	}
	// A plain run opens each page once, at the sizes in turn, and checks it there, then resized
	// in place to the other size (as a phone turned sideways): every check in all four ways but
	// axe-core, most of this test's cost (0.1-1 s of CPU a run), which checks each page in one,
	// taking turns: page i at the size it was opened in, in the theme it was opened in when i/2
	// is even and in the one switched to when odd. Each size and theme pair is so still checked
	// by axe-core on about a quarter of the pages.
	for i, p := range pages {
		first, second := uiSizes[i%2], uiSizes[1-i%2]
		schemes := open(t, i, first)
		checkThemes(t, p, first, schemes, func(k int) bool { return k == (i/2)%2 })
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(second.w, second.h)); err != nil {
			t.Fatal(err)
		}
		checkThemes(t, p, second, []string{schemes[1], schemes[0]}, func(int) bool { return false })
	}
}

// checkLayout: the page never scrolls sideways, the header is one row, and the background
// follows the theme.
func checkLayout(ctx context.Context, t *testing.T, what string, viewH int64, dark bool) {
	t.Helper()
	// One evaluation for the four measures: the test makes some 70 of these.
	m := Eval[struct {
		Over    int      // px the page is wider than the window
		Header  float64  // px, the header's height
		Wrapped []string // navigation links on two lines
		Lum     float64  // the background's luminance, 0-1
	}](ctx, t, `(() => {
		const d = document.documentElement;
		const rgb = el => getComputedStyle(el).backgroundColor.match(/[\d.]+/g).map(Number);
		const b = rgb(document.body), c = b[3] === 0 ? rgb(d) : b;
		return {
			Over: d.scrollWidth - d.clientWidth,
			Header: document.querySelector('header.top').getBoundingClientRect().height,
			Wrapped: [...document.querySelectorAll('header.top nav a, header.top nav button')]
				.filter(el => el.getBoundingClientRect().height > 46).map(el => el.textContent.trim()),
			Lum: (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255,
		};
	})()`)
	if m.Over > 0 {
		wide := Eval[string](ctx, t, `(() => { const w = document.documentElement.clientWidth; const out = [];
			for (const el of document.querySelectorAll('body *')) { const r = el.getBoundingClientRect();
				if (r.right > w + 1 && out.length < 3) out.push(el.tagName + (el.id ? '#' + el.id : '') + '.' + el.className); }
			return out.join(', '); })()`)
		t.Errorf("%s: the page scrolls sideways by %d px (too wide: %s)", what, m.Over, wide)
	}
	if m.Header > 64 {
		t.Errorf("%s: the header is %.0f px tall, want at most 64", what, m.Header)
	}
	if len(m.Wrapped) > 0 {
		t.Errorf("%s: navigation links wrap onto two lines: %v", what, m.Wrapped)
	}
	if dark && m.Lum > 0.2 {
		t.Errorf("%s: the background is light (luminance %.2f) in dark mode", what, m.Lum)
	}
	if !dark && m.Lum < 0.8 {
		t.Errorf("%s: the background is dark (luminance %.2f) in light mode", what, m.Lum)
	}
}

// checkTouchTargets: on a phone every control a finger aims at is at least 44 px tall (links
// inside running text are exempt, as in WCAG 2.5.8).
func checkTouchTargets(ctx context.Context, t *testing.T, what string) {
	t.Helper()
	small := Eval[[]string](ctx, t, `[...document.querySelectorAll('button, .button, summary, select, input:not([type=radio]):not([type=checkbox]):not([type=hidden]), header a, .tabs label, label.check, label.choice, label:has(> input[type=checkbox]), label:has(> input[type=radio])')]
		.filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.height < 43.5 && !el.closest('[hidden]'); })
		.slice(0, 5).map(el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + el.className : '') + ' ' + Math.round(el.getBoundingClientRect().height) + 'px')`)
	if len(small) > 0 {
		t.Errorf("%s: touch targets under 44 px: %s", what, strings.Join(small, ", "))
	}
}

// checkRatingBar: after the reveal, the four rating buttons sit in one row, on screen, in at most
// a fifth of the viewport's height.
func checkRatingBar(ctx context.Context, t *testing.T, what string) {
	t.Helper()
	bar := Eval[[]float64](ctx, t, `(() => { const r = document.getElementById('rate-form').getBoundingClientRect();
		const tops = [...document.querySelectorAll('#rate-form .rate')].map(b => Math.round(b.getBoundingClientRect().top));
		return [r.top, r.bottom, r.height, window.innerHeight, new Set(tops).size, tops.length]; })()`)
	top, bottom, height, view, rows, buttons := bar[0], bar[1], bar[2], bar[3], bar[4], bar[5]
	if height > 0.2*view {
		t.Errorf("%s: the rating bar is %.0f px tall, more than 20 %% of %.0f", what, height, view)
	}
	if top < 0 || bottom > view+1 {
		t.Errorf("%s: the rating bar is off screen (%.0f–%.0f of %.0f)", what, top, bottom, view)
	}
	if buttons != 4 || rows != 1 {
		t.Errorf("%s: %v rating buttons in %v rows, want 4 in one row", what, buttons, rows)
	}
}

// checkHistoryFits: every column of the review history is in view, none behind a sideways
// scroll of its panel (on a phone the rows stack into two lines each).
func checkHistoryFits(ctx context.Context, t *testing.T, what string) {
	t.Helper()
	m := Eval[[]float64](ctx, t, `(() => { const s = document.querySelector('#history .scroll');
		return [s.scrollWidth - s.clientWidth, document.querySelectorAll('#history tbody td').length]; })()`)
	if m[0] > 0 {
		t.Errorf("%s: the review history scrolls sideways by %.0f px", what, m[0])
	}
	if m[1] < 6 {
		t.Errorf("%s: the review history shows %.0f cells, want a row of 6", what, m[1])
	}
}

func saveShot(ctx context.Context, t *testing.T, path string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestUIThemeToggleAndKeyHelp: the header button switches the theme at once, the choice is
// saved for the account (a fresh browser session gets it from the server), and "?" opens a
// dialog that lists the shared keys and those the page declares.
func TestUIThemeToggleAndKeyHelp(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "TestUIEveryPageBothSizesBothThemes checks both themes on every page")
	dir := t.TempDir()
	AddUser(t, dir, "tia", "toggle-pass-1", false)
	app := StartApp(t, dir)
	ctx := Browser(t)
	bg := func() string {
		return Eval[string](ctx, t, `getComputedStyle(document.documentElement).backgroundColor`)
	}
	// Signed out: the login page in both themes, and a toggle remembered by the browser alone.
	for _, scheme := range []string{"light", "dark"} {
		setTheme(ctx, t, scheme)
		visit("/login", "username")(ctx, t, app.URL)
		checkLayout(ctx, t, "login, "+scheme, 800, scheme == "dark")
		CheckA11yAll(ctx, t, "login, "+scheme)
	}
	setTheme(ctx, t, "light")
	visit("/", "topics")(ctx, t, app.URL)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("theme-toggle"))); err != nil {
		t.Fatal(err)
	}
	visit("/search", "q")(ctx, t, app.URL)
	if th := Eval[string](ctx, t, `document.documentElement.dataset.theme || ''`); th != "dark" {
		t.Fatalf("signed out, the toggled theme was not kept on the next page: %q", th)
	}
	Eval[bool](ctx, t, `(localStorage.clear(), true)`)

	Login(ctx, t, app.URL, "tia", "toggle-pass-1")
	light := bg()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("theme-toggle"))); err != nil {
		t.Fatal(err)
	}
	if th := Eval[string](ctx, t, `document.documentElement.dataset.theme`); th != "dark" || bg() == light {
		t.Fatalf("after the toggle: data-theme=%q, background %s (light was %s)", th, bg(), light)
	}
	// The server saved it: drop this device's memory and reload. The page saves in the
	// background, so wait until the account page shows the choice (under load the reload
	// could otherwise overtake the save).
	if !awaitJS[bool](ctx, t, `(async () => { for (let i = 0; i < 100; i++) {
		const html = await (await fetch('/account')).text();
		if (new DOMParser().parseFromString(html, 'text/html').getElementById('theme-dark')?.checked) return true;
		await new Promise(r => setTimeout(r, 100)); } return false })()`) {
		t.Fatal("the account page never showed the toggled theme as saved")
	}
	Eval[bool](ctx, t, `(localStorage.clear(), true)`)
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/account"), chromedp.WaitVisible(chromedp.ID("appearance"), poll)); err != nil {
		t.Fatal(err)
	}
	if th := Eval[string](ctx, t, `document.documentElement.dataset.theme || ''`); th != "dark" {
		t.Fatalf("after reload with storage cleared: data-theme=%q, want dark from the account", th)
	}
	if !Eval[bool](ctx, t, `document.getElementById('theme-dark').checked`) {
		t.Fatal("the account page does not show dark as the saved theme")
	}

	// Keyboard help lists the shared keys.
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/"), chromedp.WaitVisible(chromedp.ID("topics"), poll), chromedp.KeyEvent("?"),
		chromedp.WaitVisible(chromedp.ID("keyhelp"), poll)); err != nil {
		t.Fatalf("open the key help: %v", err)
	}
	text := Eval[string](ctx, t, `document.getElementById('keyhelp').innerText`)
	for _, want := range []string{"Keyboard shortcuts", "search", "show or hide this list"} {
		if !strings.Contains(text, want) {
			t.Errorf("key help lacks %q: %q", want, text)
		}
	}
	CheckA11yAll(ctx, t, "key help dialog")
	if dir := os.Getenv("UI_SHOTS"); dir != "" {
		saveShot(ctx, t, filepath.Join(dir, "keyhelp-1200-dark.png"))
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("?"), chromedp.WaitNotPresent(chromedp.ID("keyhelp"), poll)); err != nil {
		t.Fatalf("close the key help with ?: %v", err)
	}
	// A page's own keys, declared with data-keys, are listed too (the study page declares its own).
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/study"), chromedp.WaitVisible(chromedp.ID("reveal"), poll)); err != nil {
		t.Fatal(err)
	}
	declared := Eval[string](ctx, t, `[...document.querySelectorAll('[data-keys]')].map(e => e.dataset.keys).join(';')`)
	for _, want := range []string{"show the answer", "rate Again", "rate Easy", "undo the last answer"} {
		if !strings.Contains(declared, want) {
			t.Errorf("the study page does not declare %q among its keys: %q", want, declared)
		}
	}
	if declared != "" {
		if err := chromedp.Do(ctx, chromedp.KeyEvent("?"), chromedp.WaitVisible(chromedp.ID("keyhelp"), poll)); err != nil {
			t.Fatal(err)
		}
		text := Eval[string](ctx, t, `document.getElementById('keyhelp').innerText`)
		for _, pair := range strings.Split(declared, ";") {
			if k, what, ok := strings.Cut(pair, "="); ok && !strings.Contains(text, strings.TrimSpace(what)) {
				t.Errorf("key help lacks the page's key %q (%s): %q", k, what, text)
			}
		}
	} else {
		t.Log("the study page declares no data-keys yet: only the shared keys are listed there")
	}

	// On a phone the navigation folds into a menu that opens and shows every link.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(app.URL+"/"), chromedp.WaitVisible(chromedp.ID("nav-toggle"), poll)); err != nil {
		t.Fatal(err)
	}
	if Eval[bool](ctx, t, `getComputedStyle(document.getElementById('nav')).display !== 'none'`) {
		t.Fatal("the phone menu is open before it is asked for")
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("nav-toggle")), chromedp.WaitVisible(chromedp.ID("logout"), poll)); err != nil {
		t.Fatalf("open the menu: %v", err)
	}
	if Eval[string](ctx, t, `document.getElementById('nav-toggle').getAttribute('aria-expanded')`) != "true" {
		t.Fatal("the menu button does not say it is expanded")
	}
	CheckA11yAll(ctx, t, "phone menu open")
	if dir := os.Getenv("UI_SHOTS"); dir != "" {
		saveShot(ctx, t, filepath.Join(dir, "menu-390x844-dark.png"))
	}
}
