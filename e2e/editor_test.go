package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/rehearse/rehearse/internal/editor"
)

// editorCard is the card the browser test writes: the editor's template with its own question.
func editorCard(answer string) string {
	md := editor.Template("e2e-written-card", "Rebalance fundamentals")
	md = strings.Replace(md, "TODO: the interview question?", "How does a browser test write a card?", 1)
	return strings.Replace(md, "The one-line answer an interviewer wants first", answer, 1)
}

// typeInto replaces the editor's text as typing would, firing the input event the script hears.
func typeInto(ctx context.Context, t *testing.T, text string) {
	t.Helper()
	js := `(() => { const ta = document.getElementById('editor-md'); ta.value = ` + strconv.Quote(text) + `;
		ta.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`
	Eval[bool](ctx, t, js)
}

// TestEditorFlow: with the default run (the embedded deck), an admin writes a card in the
// editor, sees a live error and fixes it, saves, studies the card, edits it without losing the
// progress, restarts the server, and restores the first revision from the history.
func TestEditorFlow(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "internal/server and internal/editor test saving, history and restore without a browser")
	dir := t.TempDir()
	AddUser(t, dir, "ada", "analytical-engine", true)
	app := StartApp(t, dir)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "ada", "analytical-engine")

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/cards/new"),
		chromedp.WaitVisible(chromedp.ID("editor-md"), poll),
	); err != nil {
		t.Fatalf("open the editor: %v", err)
	}
	first := editorCard("Through the editor, checked as it types")
	Eval[bool](ctx, t, `window.__sameDocument = true`)
	typeInto(ctx, t, strings.Replace(first, "## Basics", "## Basix", 1))
	waitFor(ctx, t, `(() => { const li = document.querySelector('#editor-errors li[data-line="14"]');
		return !!li && li.textContent.includes('unknown section') && !!document.querySelector('#editor-gutter .bad[data-line="14"]'); })()`,
		"the live error beside line 14")
	if !Eval[bool](ctx, t, `window.__sameDocument === true`) {
		t.Fatal("the live check reloaded the page")
	}
	screenshots(ctx, t, "editor-error")
	typeInto(ctx, t, first)
	waitFor(ctx, t, `!!document.getElementById('editor-ok') && document.getElementById('editor-question')?.textContent === 'How does a browser test write a card?'`,
		"the rendered card once fixed")
	CheckA11y(ctx, t, "the card editor")
	screenshots(ctx, t, "editor-ok")
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("editor-save")),
		chromedp.WaitVisible(chromedp.ID("card-history"), poll),
	); err != nil {
		t.Fatalf("save: %v", err)
	}
	if q := Eval[string](ctx, t, `document.getElementById('question').textContent`); q != "How does a browser test write a card?" {
		t.Fatalf("card page after save asks %q", q)
	}
	screenshots(ctx, t, "card-saved")

	// Study it: reveal and rate Good.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/study?card=e2e-written-card"),
		chromedp.WaitVisible(chromedp.ID("reveal"), poll),
		chromedp.Click(chromedp.ID("reveal")),
		chromedp.WaitVisible(chromedp.ID("rate-3"), poll),
		chromedp.Click(chromedp.ID("rate-3")),
	); err != nil {
		t.Fatalf("study the new card: %v", err)
	}
	waitFor(ctx, t, `document.getElementById('study')?.dataset.card !== 'e2e-written-card'`, "the next card after rating")
	before := cardState(ctx, t, app.URL, "e2e-written-card")
	progress := Eval[string](ctx, t, `document.getElementById('progress-state').closest('section, div, table').textContent`)
	if before == "new" {
		t.Fatalf("the rated card is still new")
	}

	// Edit its text: the progress is the same.
	second := editorCard("Through the editor, edited after studying")
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/cards/e2e-written-card/edit"),
		chromedp.WaitVisible(chromedp.ID("editor-md"), poll),
	); err != nil {
		t.Fatalf("open the editor again: %v", err)
	}
	typeInto(ctx, t, second)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("editor-save")),
		chromedp.WaitVisible(chromedp.ID("card-history"), poll),
	); err != nil {
		t.Fatalf("save the edit: %v", err)
	}
	if after := cardState(ctx, t, app.URL, "e2e-written-card"); after != before {
		t.Errorf("progress state %q after the edit, %q before", after, before)
	}
	if got := Eval[string](ctx, t, `document.getElementById('progress-state').closest('section, div, table').textContent`); got != progress {
		t.Errorf("progress changed by the edit:\n before %q\n after  %q", progress, got)
	}

	// Restart: the card and its edit are still there.
	app.Stop()
	app = StartApp(t, dir) // a new port on the same host: the session cookie still applies
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/cards/e2e-written-card"),
		chromedp.WaitVisible(chromedp.ID("question"), poll),
	); err != nil {
		t.Fatalf("the card after a restart: %v", err)
	}
	if !Eval[bool](ctx, t, `document.getElementById('card').textContent.includes('edited after studying')`) {
		t.Fatal("the edit did not survive the restart")
	}
	if !Eval[bool](ctx, t, `!!document.getElementById('logout')`) {
		Login(ctx, t, app.URL, "ada", "analytical-engine")
	}

	// History: both revisions, the diff, and restoring the first.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("card-history")),
		chromedp.WaitVisible(chromedp.ID("history"), poll),
	); err != nil {
		t.Fatalf("open the history: %v", err)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#history li').length`); n != 2 {
		t.Fatalf("%d revisions listed, want 2", n)
	}
	if !Eval[bool](ctx, t, `document.querySelector('#diff .add')?.textContent.includes('edited after studying') && document.querySelector('#diff .del')?.textContent.includes('checked as it types')`) {
		t.Error("the diff does not show the edit")
	}
	CheckA11y(ctx, t, "the card history")
	screenshots(ctx, t, "history")
	if err := chromedp.Do(ctx,
		chromedp.Click(`#history li:last-child button.restore`),
		chromedp.WaitVisible(chromedp.ID("editor-md"), poll),
		chromedp.Navigate(app.URL+"/cards/e2e-written-card"),
		chromedp.WaitVisible(chromedp.ID("question"), poll),
	); err != nil {
		t.Fatalf("restore the first revision: %v", err)
	}
	if !Eval[bool](ctx, t, `document.getElementById('card').textContent.includes('checked as it types')`) {
		t.Error("restoring did not bring back the first text")
	}
	if after := cardState(ctx, t, app.URL, "e2e-written-card"); after != before {
		t.Errorf("progress state %q after the restore, %q before", after, before)
	}

	// An API token from /account, shown once; the admin page has the members' edit switch.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/account"),
		chromedp.WaitVisible(chromedp.ID("token-create"), poll),
		chromedp.SendKeys(`#token-create input[name=name]`, "deck CI"),
		chromedp.SendKeys(`#token-create input[name=password]`, "analytical-engine"),
		chromedp.Click(`#token-create button`),
		chromedp.WaitVisible(chromedp.ID("token-value"), poll),
	); err != nil {
		t.Fatalf("create a token: %v", err)
	}
	if n := len(Eval[string](ctx, t, `document.getElementById('token-value').textContent`)); n < 40 {
		t.Errorf("token of %d characters", n)
	}
	CheckA11y(ctx, t, "the account page with a new token")
	screenshots(ctx, t, "account-token")
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/admin"),
		chromedp.WaitVisible(chromedp.ID("editing"), poll),
	); err != nil {
		t.Fatalf("admin page: %v", err)
	}
	screenshots(ctx, t, "admin-editing")
}

// screenshots saves the page at phone and desktop width, light and dark, when
// REHEARSE_SHOTS names a directory (for looking at the pages, not for asserting).
func screenshots(ctx context.Context, t *testing.T, name string) {
	dir := os.Getenv("REHEARSE_SHOTS")
	if dir == "" {
		return
	}
	for _, w := range []int64{390, 1280} {
		for _, scheme := range []string{"light", "dark"} {
			if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(w, 900)); err != nil {
				t.Fatal(err)
			}
			setTheme(ctx, t, scheme)
			saveShot(ctx, t, filepath.Join(dir, name+"-"+strconv.FormatInt(w, 10)+"-"+scheme+".png"))
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(1200, 900)); err != nil {
		t.Fatal(err)
	}
	setTheme(ctx, t, "light")
}
