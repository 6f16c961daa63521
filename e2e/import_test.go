package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Two cards in the plain-text import form: one complete, one missing its basics and pitfalls.
const (
	importComplete = `Why would a consumer commit offsets before processing a batch?
answer
- it trades duplicates for possible loss
- a crash after the commit skips the batch
basics
~20 sCommitting first means the group's position moves before the work is done. If the consumer dies mid-batch, the next owner starts after it, so those records are never processed.
solid answer
~40 sThe order of commit and processing picks the delivery guarantee. Commit after processing gives at-least-once: a crash replays the batch. Commit before gives at-most-once: a crash loses it. Few pipelines want the second, which is why auto-commit timing matters.
go deeper
Knows that commit order decides duplicates versus loss.
Explains at-least-once and at-most-once in terms of crash points.
Relates auto-commit on poll to the same trade-off.
Designs idempotent processing so at-least-once is safe.
## Why it matters A crash point between commit and processing decides what is lost.
- Does auto-commit commit before processing?It commits on the next poll, after the previous batch was returned.
saying these in an interview costs you the question
- Saying committing first gives exactly-once.
`
	// importLong's solid answer runs over its 40 s clock: a warning, not a refusal.
	importLong = `How does a consumer find out that its group is rebalancing?
answer
- from the heartbeat response: REBALANCE_IN_PROGRESS
basics
~20 sIts background heartbeat gets an answer saying a rebalance is in progress, and the next poll rejoins the group.
solid answer
~40 sEvery consumer in a classic group sends heartbeats from a background thread every few seconds, and the coordinator answers each of them. When a rebalance starts, because a member joined, left, was evicted or changed its subscription, the coordinator answers the next heartbeat of every other member with an error that says a rebalance is in progress. The heartbeat thread records that, and the next time the application calls poll, the consumer runs its revocation callback if the protocol asks for one, sends its join request with its subscription and owned partitions, and waits for the assignment to come back through the sync request. A member that does not poll in time misses the rebalance and is dropped from the new generation, which is why long processing between polls hurts so much.
go deeper
Knows heartbeats carry the news.
Explains the rejoin inside poll.
Relates the poll interval to missing a rebalance.
Tunes heartbeats and poll timing together.
## How it hears The coordinator answers heartbeats with an error while a rebalance is in progress.
- Does a consumer learn about a rebalance instantly?No, at its next heartbeat and then its next poll.
saying these in an interview costs you the question
- Saying the coordinator pushes the new assignment to every member.
`
	importMissing = `What does a consumer lag metric measure?
answer
- the distance between the log end and the committed offset
go deeper
Knows lag counts records not yet consumed.
Explains it per partition.
Relates it to throughput.
Alerts on its trend, not a fixed number.
`
)

// TestImportFlow: an admin uploads two plain-text cards through the browser, previews them,
// saves them into the deck (stored in the app, laid over the --content directory), and the
// reloaded deck serves the new cards.
func TestImportFlow(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "internal/server and internal/importer test the import; TestUIEveryPageBothSizesBothThemes opens its page")
	content := t.TempDir()
	if err := os.CopyFS(content, os.DirFS("../content")); err != nil {
		t.Fatal(err)
	}
	inputs := t.TempDir()
	var files []string
	for name, text := range map[string]string{"commit-first.txt": importComplete, "lag.txt": importMissing, "heartbeat.txt": importLong} {
		p := filepath.Join(inputs, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}

	app := StartApp(t, "", "--content", content)
	AddUser(t, app.DataDir, "ada", "analytical-engine", true)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "ada", "analytical-engine")

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/admin"),
		chromedp.Click(chromedp.ID("import-link")),
		chromedp.WaitVisible(chromedp.ID("import-files"), poll),
		chromedp.SetUploadFiles(chromedp.ID("import-files"), files),
		chromedp.Click(chromedp.ID("import-preview")),
		chromedp.WaitVisible(chromedp.ID("import-save-button"), poll),
	); err != nil {
		t.Fatalf("upload and preview: %v", err)
	}
	CheckA11y(ctx, t, "the import preview")
	if n := Eval[int](ctx, t, `document.querySelectorAll('article.import-card').length`); n != 3 {
		t.Fatalf("%d cards previewed, want 3", n)
	}
	// The over-long answer is a warning shown with its card, and the card is still saved.
	if w := Eval[string](ctx, t, `[...document.querySelectorAll('.import-warnings')].map(u => u.textContent).join('|')`); !strings.Contains(w, `section "Solid answer" runs`) {
		t.Errorf("warnings shown: %q", w)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#import-save input[name=md]').length`); n != 3 {
		t.Errorf("%d cards offered for saving, want 3", n)
	}
	screenshots(ctx, t, "import-preview")
	sent := Eval[[]string](ctx, t, `[...document.querySelectorAll('#import-save input[name=md]')].map(i => i.value)`)
	if n := Eval[int](ctx, t, `[...document.querySelectorAll('article.import-card')].filter(a => a.querySelector('.import-problems')).length`); n != 1 {
		t.Errorf("%d cards with problems, want 1 (lag.txt lacks sections)", n)
	}
	// Every depth shows in the preview (the card page's tabs cannot work with several cards).
	if n := Eval[int](ctx, t, `[...document.querySelectorAll('article.import-card .panel')].filter(p => p.offsetParent !== null).length`); n != 9 {
		t.Errorf("%d visible depth panels, want 9", n)
	}

	// At phone width nothing runs off the side (long ids and paths wrap).
	if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(360, 800)); err != nil {
		t.Fatal(err)
	}
	if over := Eval[bool](ctx, t, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); over {
		t.Error("the preview scrolls sideways at 360 px")
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1200, 900),
		chromedp.Click(chromedp.ID("import-save-button")),
		chromedp.WaitVisible(chromedp.ID("import-reload"), poll),
	); err != nil {
		t.Fatalf("save: %v", err)
	}
	if msg := Eval[string](ctx, t, `document.getElementById('import-reload').textContent`); !strings.Contains(msg, "reloaded") {
		t.Fatalf("reload outcome: %q", msg)
	}
	saved := Eval[[]string](ctx, t, `[...document.querySelectorAll('.import-results li.saved > code')].map(c => c.textContent)`)
	if len(saved) != 3 {
		t.Fatalf("saved %q, want three files", saved)
	}
	// Sending the same cards again (a second tab, say): each is refused, and the page keeps its
	// text and its preview.
	Eval[bool](ctx, t, `(() => {
		const f = document.createElement('form'); f.method = 'post'; f.action = '/admin/import/save'; f.id = 'resend';
		for (const md of `+jsonString(t, sent)+`) { const i = document.createElement('input'); i.type = 'hidden'; i.name = 'md'; i.value = md; f.append(i); }
		document.body.append(f); f.submit(); return true })()`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`.import-results li.refused`, poll)); err != nil {
		t.Fatalf("resend: %v", err)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('.import-results li.refused details.import-refused .question').length`); n != 3 {
		t.Errorf("%d refused cards previewed again, want 3", n)
	}
	if n := Eval[int](ctx, t, `[...document.querySelectorAll('.import-results li.refused textarea.import-md')].filter(t => t.value.includes('## Solid answer')).length`); n != 3 {
		t.Errorf("%d refused cards keep their markdown, want 3", n)
	}
	screenshots(ctx, t, "import-refused")
	for _, rel := range saved {
		if _, err := os.Stat(filepath.Join(content, filepath.FromSlash(rel))); err == nil {
			t.Errorf("%s was written into the content directory; imports are stored in the app", rel)
		}
	}
	// The reloaded deck serves both cards.
	questions := map[string]bool{}
	for _, rel := range saved {
		id := strings.TrimSuffix(filepath.Base(rel), ".md")
		if err := chromedp.Do(ctx,
			chromedp.Navigate(app.URL+"/cards/"+id),
			chromedp.WaitVisible(chromedp.ID("question"), poll),
		); err != nil {
			t.Fatalf("open the imported card %s: %v", id, err)
		}
		questions[Eval[string](ctx, t, `document.getElementById('question').textContent`)] = true
	}
	for _, q := range []string{"Why would a consumer commit offsets before processing a batch?", "What does a consumer lag metric measure?"} {
		if !questions[q] {
			t.Errorf("no imported card page asks %q (got %v)", q, questions)
		}
	}
}

// jsonString is v as a JavaScript literal.
func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
