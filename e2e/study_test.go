package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestStudyKeyboard: study with the keyboard only. Space shows the answer in place, 3 rates it
// Good and the next card appears, u brings the previous card back with its old (new) state.
func TestStudyKeyboard(t *testing.T) {
	parallelTest(t)
	dir := t.TempDir()
	AddUser(t, dir, "sam", "spaced-repetition", false)
	app := StartApp(t, dir)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "sam", "spaced-repetition")

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/study"),
		chromedp.WaitVisible(chromedp.ID("reveal"), poll),
	); err != nil {
		t.Fatalf("open /study: %v", err)
	}
	first := Eval[string](ctx, t, `document.getElementById('study').dataset.card`)
	newBefore := Eval[string](ctx, t, `document.getElementById('count-new').textContent`)
	if first == "" || newBefore != "10" {
		t.Fatalf("first card %q, new count %q (want 10, the default limit)", first, newBefore)
	}
	if Eval[bool](ctx, t, `document.getElementById('study-answer').offsetParent !== null`) {
		t.Fatal("answer visible before Space")
	}
	// Mark the document: if Space reloaded the page, the mark would be gone.
	Eval[bool](ctx, t, `window.__sameDocument = true`)
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent(" "),
		chromedp.WaitVisible(chromedp.ID("rate-3"), poll),
	); err != nil {
		t.Fatalf("Space to reveal: %v", err)
	}
	if !Eval[bool](ctx, t, `window.__sameDocument === true`) {
		t.Fatal("revealing reloaded the page")
	}
	if Eval[bool](ctx, t, `document.getElementById('basics').offsetParent === null`) {
		t.Fatal("the default depth (basics) is not shown after reveal")
	}
	label := Eval[string](ctx, t, `document.querySelector('#rate-3 .rate-ivl').textContent`)
	if label != "10m" {
		t.Fatalf("Good on a new card shows %q, want 10m", label)
	}

	if err := chromedp.Do(ctx, chromedp.KeyEvent("3")); err != nil {
		t.Fatalf("press 3: %v", err)
	}
	waitFor(ctx, t, `(() => { const s = document.getElementById('study');
		return s && s.dataset.state === 'question' && s.dataset.card !== '`+first+`'; })()`, "the next card")
	second := Eval[string](ctx, t, `document.getElementById('study').dataset.card`)
	if second == first || second == "" {
		t.Fatalf("next card %q after answering %q", second, first)
	}
	if n := Eval[string](ctx, t, `document.getElementById('count-new').textContent`); n != "9" {
		t.Fatalf("new count after one answer %q, want 9", n)
	}
	if !Eval[bool](ctx, t, `window.__sameDocument === true`) {
		t.Fatal("answering reloaded the page; the next card should be swapped in place")
	}
	// The keys keep working on the swapped-in card: Space reveals it.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(" "), chromedp.WaitVisible(chromedp.ID("rate-3"), poll)); err != nil {
		t.Fatalf("reveal the second card: %v", err)
	}
	if s := cardState(ctx, t, app.URL, first); s != "learning" {
		t.Fatalf("state after Good: %q, want learning", s)
	}

	// Back to the session; u undoes the answer and shows the same card's question again.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/study"),
		chromedp.WaitVisible(chromedp.ID("undo"), poll),
		chromedp.KeyEvent("u"),
	); err != nil {
		t.Fatalf("press u: %v", err)
	}
	waitFor(ctx, t, `(() => { const s = document.getElementById('study');
		return s && s.dataset.state === 'question' && s.dataset.card === '`+first+`'; })()`, "the undone card")
	if loc := Eval[string](ctx, t, `location.pathname + location.search`); loc != "/study?card="+first {
		t.Errorf("after undo the address is %q, want /study?card=%s", loc, first)
	}
	if n := Eval[string](ctx, t, `document.getElementById('count-new').textContent`); n != "10" {
		t.Fatalf("new count after undo %q, want 10", n)
	}
	if s := cardState(ctx, t, app.URL, first); s != "new" {
		t.Fatalf("state after undo: %q, want new", s)
	}
}

// cardState reads the user's state for a card from the card page's progress block.
func cardState(ctx context.Context, t *testing.T, base, id string) string {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/cards/"+id),
		chromedp.WaitVisible(chromedp.ID("progress-state"), poll),
	); err != nil {
		t.Fatalf("open card %s: %v", id, err)
	}
	return Eval[string](ctx, t, `document.getElementById('progress-state').dataset.state`)
}

// waitFor re-evaluates a JavaScript condition until it holds. It polls from Go rather than in
// the page, because the page navigates meanwhile (an evaluation during a load just fails).
func waitFor(ctx context.Context, t *testing.T, cond, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: last error %v", what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
