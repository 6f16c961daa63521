package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestSimPlayback: the step view plays its rounds line by line with a caption, and the arrow
// keys step it without anything focused first; "?" lists those keys.
func TestSimPlayback(t *testing.T) {
	parallelTest(t)
	app := StartApp(t, "")
	ctx := Browser(t)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/cards/cooperative-two-rounds"),
		chromedp.WaitVisible(chromedp.ID("simulation"), poll),
	); err != nil {
		t.Fatal(err)
	}
	pos := func() string { return Eval[string](ctx, t, `document.querySelector('.steps .step-pos').textContent`) }
	if p := pos(); p != "Round 1 of 2" {
		t.Fatalf("step view starts at %q", p)
	}
	// Nothing focused: → steps the first step view on screen.
	Eval[bool](ctx, t, `(() => { document.activeElement.blur(); document.querySelector('.steps').scrollIntoView(); return true })()`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if p := pos(); p != "Round 2 of 2" {
		t.Errorf("after → with nothing focused: %q", p)
	}
	// Play from the start at 4×: the caption follows the rounds' lines and the scrubber moves.
	Eval[bool](ctx, t, `(() => { const s = document.querySelector('.steps'); s.querySelector('.step-speed').value = '4'; s.querySelector('.step-scrub').value = 0; s.querySelector('.step-scrub').dispatchEvent(new Event('input')); s.querySelector('.step-toggle').click(); return true })()`)
	first := Eval[string](ctx, t, `document.querySelector('.steps .step-caption').textContent`)
	time.Sleep(1200 * time.Millisecond)
	later := Eval[string](ctx, t, `document.querySelector('.steps .step-caption').textContent`)
	if first == "" || first == later {
		t.Errorf("caption did not move on: %q then %q", first, later)
	}
	if v := Eval[string](ctx, t, `document.querySelector('.steps .step-scrub').value`); v == "0" {
		t.Error("scrubber did not move")
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("p")); err != nil {
		t.Fatal(err)
	}
	if Eval[string](ctx, t, `document.querySelector('.steps .step-toggle').textContent`) != "Play" {
		t.Error("p did not pause")
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent("?"), chromedp.WaitVisible(chromedp.ID("keyhelp"), poll)); err != nil {
		t.Fatal(err)
	}
	if help := Eval[string](ctx, t, `document.getElementById('keyhelp').textContent`); !strings.Contains(help, "step-through") {
		t.Errorf("? does not list the step-through keys: %q", help)
	}
}
