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

// TestHostileCardPagesInChromium: what the hostile-input bounds show people, in a real browser,
// with screenshots at both sizes in both themes (REHEARSE_SHOTS=dir): the token form asking for
// the password, /admin's live tokens and the stored cards left out of the deck, a history
// diff too large to align (said on the page), and a code block shown plain (said under it).
func TestHostileCardPagesInChromium(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "TestHostileCards and TestStartupSkipsStoredCardsThatNoLongerLoad check the same answers without a browser")
	content := t.TempDir()
	if err := os.CopyFS(content, os.DirFS("../content")); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	AddUser(t, dir, "ada", "analytical-engine", true)
	app := StartApp(t, dir, "--content", content)
	c := opsClient()
	opsLogin(t, c, app.URL, "ada", "analytical-engine")
	tok := e2eToken(t, c, app.URL, "analytical-engine")
	put := func(id, md string) {
		t.Helper()
		code, body := apiPut(t, app.URL, tok, id, "99-hostile/"+id+".md", md)
		if code != 201 && code != 200 {
			t.Fatalf("PUT %s: %d %.300s", id, code, body)
		}
	}
	card := func(id, explanation string) string {
		return strings.Replace(editor.Template(id, "Hostile input"), "The longer explanation, with examples. Markdown works here: lists, `code`, tables.", explanation, 1)
	}
	put("parens", card("parens", "A build rule:\n\n```make\n"+strings.Repeat("(", 10000)+"\n```"))
	put("long-history", card("long-history", strings.TrimSuffix(strings.Repeat("a\n", 2100), "\n")))
	put("long-history", card("long-history", strings.TrimSuffix(strings.Repeat("b\n", 2100), "\n")))
	// A stored card whose link target goes away: left out at the next start.
	if err := os.MkdirAll(filepath.Join(content, "99-hostile"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(content, "99-hostile", "gone-card.md"), []byte(card("gone-card", "Soon gone.")), 0o644); err != nil {
		t.Fatal(err)
	}
	app.Stop()
	app = StartApp(t, dir, "--content", content)
	put("linker", strings.Replace(card("linker", "x"), "- The one-line answer an interviewer wants first", "- See [the other card](/cards/gone-card)", 1))
	app.Stop()
	if err := os.Remove(filepath.Join(content, "99-hostile", "gone-card.md")); err != nil {
		t.Fatal(err)
	}
	app = StartApp(t, dir, "--content", content)

	ctx := Browser(t)
	Login(ctx, t, app.URL, "ada", "analytical-engine")
	for _, p := range []struct{ name, path, sel string }{
		{"account-token-form", "/account", "#token-create"},
		{"admin-tokens", "/admin", "#admin-tokens"},
		{"admin-skipped", "/admin", "#deck-skipped"},
		{"history-coarse", "/cards/long-history/history", "#diff-coarse"},
		{"card-code-note", "/cards/parens", ".code-note"},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+p.path), chromedp.WaitReady(p.sel, poll)); err != nil {
			t.Fatalf("%s: no %s: %v", p.path, p.sel, err)
		}
		Eval[bool](ctx, t, `(document.querySelectorAll('details').forEach(d => d.open = true), true)`) // the explanation folds
		if err := chromedp.Do(ctx, chromedp.WaitVisible(p.sel, poll)); err != nil {
			t.Fatalf("%s: %s not shown: %v", p.path, p.sel, err)
		}
		viewShots(ctx, t, p.name, p.sel)
	}
}

// viewShots saves what the viewport shows with sel scrolled into view, at both sizes in both
// themes, when REHEARSE_SHOTS names a directory (the page may be far taller than a screenshot).
func viewShots(ctx context.Context, t *testing.T, name, sel string) {
	t.Helper()
	dir := os.Getenv("REHEARSE_SHOTS")
	if dir == "" {
		return
	}
	for _, w := range []int64{390, 1280} {
		for _, scheme := range []string{"light", "dark"} {
			setTheme(ctx, t, scheme)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900), chromedp.ScrollIntoView(sel)); err != nil {
				t.Fatal(err)
			}
			buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+"-"+strconv.FormatInt(w, 10)+"-"+scheme+".png"), buf, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	setTheme(ctx, t, "light")
}
