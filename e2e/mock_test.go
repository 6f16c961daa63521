package e2e

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	_ "modernc.org/sqlite" // to read the review log after the app stops

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
)

// TestMockStrictTwoQuestions: a two-question mock under a 5 s strict clock. The first answer is
// typed (one of the card's bullets) and sent with Ctrl+Enter, and its coverage tick appears; the
// second is left to run out, and the page moves on by itself. Both are rated with the keys, the
// summary adds up, and both ratings reached the spaced-repetition log as mock reviews.
func TestMockStrictTwoQuestions(t *testing.T) {
	parallelTest(t)
	dir := t.TempDir()
	AddUser(t, dir, "mia", "mock-interview", false)
	app := StartApp(t, dir)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "mia", "mock-interview")
	d, err := deck.Load(content.FS, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/mock/new?seed=2026&n=2&clock=strict&timer=5"),
		chromedp.WaitVisible(chromedp.ID("mock-start"), poll),
	); err != nil {
		t.Fatalf("open the setup: %v", err)
	}
	CheckA11y(ctx, t, "mock setup") // its question, review and summary pages: in TestUIEveryPageBothSizesBothThemes
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("mock-start")),
		chromedp.WaitVisible(chromedp.ID("countdown"), poll),
	); err != nil {
		t.Fatalf("start the mock: %v", err)
	}
	firstID := Eval[string](ctx, t, `document.getElementById('mock-question').dataset.card`)
	first, ok := d.Card(firstID)
	if !ok {
		t.Fatalf("question page names unknown card %q", firstID)
	}
	if got := Eval[string](ctx, t, `document.getElementById('countdown').textContent`); !strings.HasSuffix(got, "left") {
		t.Fatalf("countdown reads %q", got)
	}
	// Type the first key point of the basics depth and finish with Ctrl+Enter inside the text box.
	point := interview.Points(first, "basics")[0]
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("typed"), first.Answer[point].Text()),
		chromedp.Focus(chromedp.ID("typed")),
		chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.WaitVisible(chromedp.ID("mock-review"), poll),
	); err != nil {
		t.Fatalf("answer with Ctrl+Enter: %v", err)
	}
	if !Eval[bool](ctx, t, `document.getElementById('covered-`+strconv.Itoa(point)+`').checked`) {
		t.Fatalf("typed bullet not ticked; heuristic says %q", Eval[string](ctx, t, `document.getElementById('bullets').innerText`))
	}
	if n, m := Eval[int](ctx, t, `document.querySelectorAll('#bullets .why').length`), len(interview.Points(first, "basics")); n != m {
		t.Fatalf("%d explanations for %d key points", n, m)
	}

	// Rate 3 with the key; the second question comes. Leave it: the strict clock moves on.
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent("3"),
		chromedp.WaitVisible(chromedp.ID("countdown"), poll),
	); err != nil {
		t.Fatalf("rate with 3: %v", err)
	}
	if p := Eval[string](ctx, t, `document.getElementById('mock-progress').textContent`); p != "Question 2 of 2" {
		t.Fatalf("progress %q", p)
	}
	secondID := Eval[string](ctx, t, `document.getElementById('mock-question').dataset.card`)
	if secondID == firstID {
		t.Fatal("the same question twice")
	}
	waitCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(waitCtx, chromedp.WaitVisible(chromedp.ID("mock-review"), poll)); err != nil {
		t.Fatalf("the strict clock did not move on: %v", err)
	}
	if used := Eval[string](ctx, t, `document.getElementById('used').textContent`); !strings.Contains(used, "ran out") {
		t.Fatalf("expired answer reads %q", used)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#bullets input:checked').length`); n != 0 {
		t.Fatalf("an empty answer ticked %d bullets", n)
	}
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent("1"),
		chromedp.WaitVisible(chromedp.ID("overall-score"), poll),
	); err != nil {
		t.Fatalf("rate with 1: %v", err)
	}

	// Summary: question 1 covered a bullet within its time; question 2 used the whole 5 s.
	row := func(n, cell string) string {
		return Eval[string](ctx, t, `document.querySelector('#row-`+n+` .`+cell+`').textContent.replace(/\s+/g, ' ').trim()`)
	}
	if b := row("1", "bullets"); !strings.HasPrefix(b, "1 /") && !strings.HasPrefix(b, "2 /") {
		t.Errorf("row 1 bullets %q", b)
	}
	if r := row("1", "rating"); r != "(3 Good)" {
		t.Errorf("row 1 rating %q", r)
	}
	if tm := row("2", "time"); !strings.HasPrefix(tm, "0:05 / 0:05") || !strings.Contains(tm, "ran out") {
		t.Errorf("row 2 time %q", tm)
	}
	if b, r := row("2", "bullets"), row("2", "rating"); !strings.HasPrefix(b, "0 /") || r != "(1 Again)" {
		t.Errorf("row 2 bullets %q rating %q", b, r)
	}
	// Row 2 said nothing and was rated Again: no time credit, 0.
	if s := row("2", "score strong"); s != "0" {
		t.Errorf("row 2 score %q, want 0", s)
	}
	if st := Eval[string](ctx, t, `document.querySelector('#summary-status .status').textContent`); st != "finished" {
		t.Errorf("status %q", st)
	}
	link := Eval[string](ctx, t, `document.getElementById('same-questions').getAttribute('href')`)
	if !strings.Contains(link, "seed=2026") || !strings.Contains(link, "n=2") {
		t.Errorf("same-questions link %q", link)
	}

	// The history lists the finished session.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/mock/history"),
		chromedp.WaitVisible(chromedp.ID("history"), poll),
	); err != nil {
		t.Fatalf("history: %v", err)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#history tr[data-status=finished]').length`); n != 1 {
		t.Fatalf("history shows %d finished sessions", n)
	}

	// After stopping the app, the review log holds both ratings as mock reviews.
	app.Stop()
	db, err := sql.Open("sqlite", "file:"+dir+"/rehearse.db?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got := map[string]int{}
	rows, err := db.Query(`SELECT card_id, rating FROM review_log WHERE mode = 'mock' AND undone = 0`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var rating int
		if err := rows.Scan(&id, &rating); err != nil {
			t.Fatal(err)
		}
		got[id] = rating
	}
	if len(got) != 2 || got[firstID] != 3 || got[secondID] != 1 {
		t.Fatalf("review log %v, want %s=3 and %s=1", got, firstID, secondID)
	}
	var linked int
	if err := db.QueryRow(`SELECT count(*) FROM mock_answers WHERE review_log_id > 0`).Scan(&linked); err != nil || linked != 2 {
		t.Fatalf("mock answers linked to reviews: %d %v", linked, err)
	}
}

// Issue 15's scoring case in the browser: an instant empty answer rated Easy scores at most 25
// and below a real answer rated Good, which the summary names strongest.
func TestMockEmptyEasyScoresBelowRealGood(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "TestMockStrictTwoQuestions runs a mock in a plain run; internal/interview tests the scores")
	dir := t.TempDir()
	AddUser(t, dir, "hon", "honest-scores", false)
	app := StartApp(t, dir)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "hon", "honest-scores")
	d, err := deck.Load(content.FS, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/mock/new?seed=77&n=2&clock=soft&depth=deeper"),
		chromedp.WaitVisible(chromedp.ID("mock-start"), poll), chromedp.Click(chromedp.ID("mock-start")),
		chromedp.WaitVisible(chromedp.ID("answer-submit"), poll),
		chromedp.Click(chromedp.ID("answer-submit")), chromedp.WaitVisible(chromedp.ID("mock-review"), poll),
		chromedp.KeyEvent("4"), chromedp.WaitVisible(chromedp.ID("answer-submit"), poll)); err != nil {
		t.Fatalf("first question: %v", err)
	}
	second, ok := d.Card(Eval[string](ctx, t, `document.getElementById('mock-question').dataset.card`))
	if !ok {
		t.Fatal("second question names no card")
	}
	var said []string
	for _, b := range second.Answer {
		said = append(said, b.Text())
	}
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("typed"), strings.Join(said, ". ")),
		chromedp.Click(chromedp.ID("answer-submit")), chromedp.WaitVisible(chromedp.ID("mock-review"), poll),
		chromedp.KeyEvent("3"), chromedp.WaitVisible(chromedp.ID("summary-table"), poll)); err != nil {
		t.Fatalf("second question: %v", err)
	}
	score := func(n string) int {
		v, _ := strconv.Atoi(Eval[string](ctx, t, `document.querySelector('#row-`+n+` td.score strong').textContent.trim()`))
		return v
	}
	if first, real := score("1"), score("2"); first > 10 || first >= real {
		t.Fatalf("empty Easy scored %d, real Good %d", first, real)
	}
	if s := Eval[string](ctx, t, `document.getElementById('strongest').textContent`); !strings.Contains(s, second.Question) {
		t.Fatalf("strongest %q, want %q", s, second.Question)
	}
}
