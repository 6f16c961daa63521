package e2e

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// ankiPackage writes an Anki package (anki21b: zstd, protobuf media list) with
// internal/anki/testdata/make_apkg.py: Python's sqlite3 and zipfile, not our writer.
func ankiPackage(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"python3", "zstd"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is needed", tool)
			}
			t.Skipf("%s not installed", tool)
		}
	}
	out := filepath.Join(t.TempDir(), "kafka.apkg")
	if b, err := exec.Command("python3", "../internal/anki/testdata/make_apkg.py", out, "anki21b").CombinedOutput(); err != nil {
		t.Fatalf("make_apkg.py: %v\n%s", err, b)
	}
	return out
}

// TestAnkiImportStudySuspendExport: an admin uploads an Anki package, previews and saves it;
// the cards are plain cards whose image is served, the card with Anki history is scheduled from
// it, a card suspended in study leaves the queue and comes back when unsuspended on its page,
// and the account's download is a package holding the cards.
func TestAnkiImportStudySuspendExport(t *testing.T) {
	parallelTest(t)
	pkg := ankiPackage(t)
	content := t.TempDir()
	if err := os.CopyFS(content, os.DirFS("../content")); err != nil {
		t.Fatal(err)
	}
	app := StartApp(t, "", "--content", content)
	AddUser(t, app.DataDir, "ada", "analytical-engine", true)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "ada", "analytical-engine")

	// A file that is not a zip: one line, nothing stored.
	bad := filepath.Join(t.TempDir(), "notes.apkg")
	os.WriteFile(bad, []byte("front\tback\n"), 0o644)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/admin/import"),
		chromedp.SetUploadFiles(chromedp.ID("anki-file"), []string{bad}),
		chromedp.Click(chromedp.ID("anki-preview")),
		chromedp.WaitVisible(chromedp.ID("apkg-error"), poll),
	); err != nil {
		t.Fatalf("bad upload: %v", err)
	}
	if msg := Eval[string](ctx, t, `document.getElementById('apkg-error').textContent`); msg != "not an Anki package: the file is not a zip archive" {
		t.Errorf("error %q", msg)
	}

	if err := chromedp.Do(ctx,
		chromedp.SetUploadFiles(chromedp.ID("anki-file"), []string{pkg}),
		chromedp.Click(chromedp.ID("anki-preview")),
		chromedp.WaitVisible(chromedp.ID("anki-save-button"), poll),
	); err != nil {
		t.Fatalf("upload and preview: %v", err)
	}
	if got := Eval[string](ctx, t, `document.getElementById('anki-cards').textContent`); got != "6 from 4 notes" {
		t.Errorf("cards: %q", got)
	}
	if got := Eval[string](ctx, t, `document.getElementById('anki-history').textContent`); got != "1" {
		t.Errorf("with history: %q", got)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#anki-items pre code').length`); n != 1 {
		t.Errorf("%d code blocks previewed, want 1", n)
	}
	if over := Eval[bool](ctx, t, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); over {
		t.Error("the preview scrolls sideways")
	}
	CheckA11y(ctx, t, "the Anki import preview")
	screenshots(ctx, t, "anki-preview")
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("anki-save-button")),
		chromedp.WaitVisible(chromedp.ID("anki-saved"), poll),
	); err != nil {
		t.Fatalf("save: %v", err)
	}
	if got := Eval[string](ctx, t, `document.getElementById('anki-saved').textContent`); !strings.Contains(got, "Saved 6 cards (1 with your review history) and 1 image") {
		t.Errorf("saved: %q", got)
	}

	// The card with history: scheduled from it, its image served.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/cards/anki-1"),
		chromedp.WaitVisible(chromedp.ID("plain-note"), poll),
	); err != nil {
		t.Fatalf("card page: %v", err)
	}
	if st := Eval[string](ctx, t, `document.getElementById('progress-state').dataset.state`); st != "review" {
		t.Errorf("anki-1 state %q, want review (from its Anki history)", st)
	}
	for i := 0; i < 100 && !Eval[bool](ctx, t, `document.querySelector('#answer img').complete`); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if w := Eval[int](ctx, t, `document.querySelector('#answer img').naturalWidth`); w != 1 {
		t.Errorf("image width %d, want 1", w)
	}
	screenshots(ctx, t, "anki-card")

	// Study the topic: suspend the first card shown; it leaves the queue.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/study?topic=kafka-producers"),
		chromedp.WaitVisible(chromedp.ID("question"), poll),
	); err != nil {
		t.Fatalf("study: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("reveal")), chromedp.WaitVisible(chromedp.ID("plain-note"), poll)); err != nil {
		t.Fatalf("reveal: %v", err)
	}
	screenshots(ctx, t, "anki-study")
	first := Eval[string](ctx, t, `document.getElementById('study').dataset.card`)
	left := `[...document.querySelectorAll('.study-counts .count > span')].reduce((n, s) => n + +s.textContent, 0)`
	before := Eval[int](ctx, t, left)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("suspend")),
		chromedp.WaitVisible(`[data-suspended]`, poll),
	); err != nil {
		t.Fatalf("suspend: %v", err)
	}
	if next := Eval[string](ctx, t, `document.getElementById('study').dataset.card`); next == first {
		t.Errorf("the suspended card %s is still shown", first)
	}
	if after := Eval[int](ctx, t, left); after != before-1 {
		t.Errorf("%d cards left after suspending one of %d", after, before)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/cards/"+first),
		chromedp.WaitVisible(chromedp.ID("suspended"), poll),
		chromedp.Click(chromedp.ID("suspend-toggle")),
		chromedp.WaitNotPresent(chromedp.ID("suspended"), poll),
		chromedp.Navigate(app.URL+"/study?topic=kafka-producers"),
		chromedp.WaitVisible(chromedp.ID("question"), poll),
	); err != nil {
		t.Fatalf("unsuspend: %v", err)
	}
	if got := Eval[int](ctx, t, left); got != before {
		t.Errorf("%d cards left after unsuspending, want %d", got, before)
	}

	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/account"), chromedp.WaitVisible(chromedp.ID("export-download"), poll)); err != nil {
		t.Fatalf("account: %v", err)
	}
	screenshots(ctx, t, "account-export")

	// The account's download: a package whose collection holds every card.
	req, _ := http.NewRequest("GET", app.URL+"/account/export.apkg?history=1", nil)
	for _, c := range cookies(ctx, t) {
		req.AddCookie(c)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/zip" {
		t.Fatalf("download: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("download is not a zip: %v", err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if strings.Join(names, " ") != "collection.anki2 media" {
		t.Errorf("package holds %v", names)
	}
	if sqlite3, err := exec.LookPath("sqlite3"); err == nil {
		col := filepath.Join(t.TempDir(), "c.anki2")
		rc, _ := zr.File[0].Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		os.WriteFile(col, b, 0o644)
		out, err := exec.Command(sqlite3, col, "SELECT count(*) FROM notes WHERE sfld = 'What does acks=all mean?'; SELECT count(*) FROM revlog").Output()
		if err != nil || strings.Fields(string(out))[0] != "1" || strings.Fields(string(out))[1] != "4" {
			t.Errorf("exported collection: %q %v (want the card once and its 4 replayed answers)", out, err)
		}
	}
}

// cookies are the browser's cookies, for a request made without it (a download).
func cookies(ctx context.Context, t *testing.T) []*http.Cookie {
	t.Helper()
	res, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{})
	if err != nil {
		t.Fatal(err)
	}
	var out []*http.Cookie
	for _, c := range res.Cookies {
		out = append(out, &http.Cookie{Name: c.Name, Value: c.Value})
	}
	return out
}
