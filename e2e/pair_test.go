package e2e

import (
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestPairInterview: two people in two browsers. Ada opens a session for Bob; Bob's screen
// shows neither question nor rubric until Ada starts, then the question and the clock (live,
// through server-sent events); Ada marks the level and a pitfall; both see the result. Bob's
// page and the events it received never hold the rubric.
func TestPairInterview(t *testing.T) {
	parallelTest(t)
	app := StartApp(t, "")
	AddUser(t, app.DataDir, "ada", "analytical-engine", false)
	AddUser(t, app.DataDir, "bob", "bob-password-1", false)

	ada := Browser(t)
	Login(ada, t, app.URL, "ada", "analytical-engine")
	if err := chromedp.Do(ada,
		chromedp.Navigate(app.URL+"/pair"),
		chromedp.WaitVisible(chromedp.ID("pair-open"), poll),
		chromedp.SetValue(chromedp.ID("pair-card"), "eager-vs-cooperative"),
		chromedp.Click(chromedp.ID("pair-open")),
		chromedp.WaitVisible(chromedp.ID("pair-start"), poll),
	); err != nil {
		t.Fatalf("ada opens a session: %v", err)
	}
	link := Eval[string](ada, t, `location.href`)
	rubric := Eval[[]string](ada, t, `[...document.querySelectorAll('#pair-rubric li, #pair-finish label.pitfall')].map(e => e.textContent.trim().split(/\s+/).slice(0, 5).join(' ')).filter(s => s.split(' ').length >= 5)`)
	if len(rubric) < 4 {
		t.Fatalf("the interviewer's rubric: %v", rubric)
	}

	bob := Browser(t)
	var mu sync.Mutex
	var received []string
	if err := chromedp.Listen(bob, func(ev any) {
		if m, ok := ev.(*network.EventEventSourceMessageReceived); ok {
			mu.Lock()
			received = append(received, m.Data)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(bob, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	Login(bob, t, app.URL, "bob", "bob-password-1")
	if err := chromedp.Do(bob, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.ID("pair-clock"), poll)); err != nil {
		t.Fatalf("bob opens the session: %v", err)
	}
	if q := Eval[string](bob, t, `document.getElementById('pair-question').textContent`); !strings.Contains(q, "appears when ada starts") {
		t.Fatalf("bob's question before the start: %q", q)
	}
	// Ada sees Bob arrive, live.
	if _, err := chromedp.Run(ada, chromedp.Poll[bool](`document.getElementById('pair-here').textContent.startsWith('bob has the session open')`)); err != nil {
		t.Fatalf("ada's screen did not show bob arriving: %v", err)
	}
	screenshots(ada, t, "pair-interviewer")
	if err := chromedp.Do(ada, chromedp.Click(chromedp.ID("pair-start")), chromedp.WaitVisible(chromedp.ID("pair-done"), poll)); err != nil {
		t.Fatalf("ada starts: %v", err)
	}
	// Bob's screen moves on by itself: the question and the running clock.
	if err := chromedp.Do(bob, chromedp.WaitVisible(chromedp.CSS(`#pair-state[data-state=running]`), poll)); err != nil {
		t.Fatalf("bob's screen did not start: %v", err)
	}
	if q := Eval[string](bob, t, `document.getElementById('pair-question').textContent`); !strings.Contains(q, "eager and incremental cooperative") {
		t.Fatalf("bob's question once started: %q", q)
	}
	screenshots(bob, t, "pair-candidate")
	checkNoRubric := func(when string) {
		t.Helper()
		html := Eval[string](bob, t, `document.documentElement.outerHTML`)
		mu.Lock()
		events := strings.Join(received, "\n")
		mu.Unlock()
		for _, r := range rubric {
			if strings.Contains(html, r) {
				t.Fatalf("%s: bob's page holds rubric text %q", when, r)
			}
			if strings.Contains(events, r) {
				t.Fatalf("%s: bob's event stream carried rubric text %q", when, r)
			}
		}
	}
	checkNoRubric("running")
	if err := chromedp.Do(ada,
		chromedp.Click(chromedp.ID("level-3")),
		chromedp.Click(chromedp.ID("pitfall-0")),
		chromedp.SendKeys(chromedp.ID("pair-notes"), "Clear on stop-the-world; missed the follow-up."),
		chromedp.Click(chromedp.ID("pair-done")),
		chromedp.WaitVisible(chromedp.ID("pair-result"), poll),
	); err != nil {
		t.Fatalf("ada records the result: %v", err)
	}
	if err := chromedp.Do(bob, chromedp.WaitVisible(chromedp.ID("pair-result"), poll)); err != nil {
		t.Fatalf("bob's screen did not show the result: %v", err)
	}
	if got := Eval[string](bob, t, `document.getElementById('result-level').textContent + '/' + document.getElementById('result-hits').textContent`); got != "3/1" {
		t.Fatalf("bob's result: %s", got)
	}
	if got := Eval[string](ada, t, `document.getElementById('result-level').textContent`); got != "3" {
		t.Fatalf("ada's result: %s", got)
	}
	mu.Lock()
	n := len(received)
	mu.Unlock()
	if n < 2 {
		t.Fatalf("bob's page received %d server-sent events, want at least the first state and the start", n)
	}
	checkNoRubric("done")
	screenshots(bob, t, "pair-candidate-result")
}
