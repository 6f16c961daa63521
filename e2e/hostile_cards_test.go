package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/editor"
)

// TestHostileCards replays the audit's attacks through the real server, each as the request an
// editor (or a CI job with their token) can send: a PUT of the hostile card, then the server's
// health, the time the request took and the server's peak RSS. Each attack must be refused
// with a 4xx naming the limit, or served within its bound; the server must stay up.
func TestHostileCards(t *testing.T) {
	parallelTest(t)
	dir := t.TempDir()
	AddUser(t, dir, "ada", "analytical-engine", true)
	app := StartApp(t, dir)
	pid := app.cmd.Process.Pid
	c := opsClient()
	opsLogin(t, c, app.URL, "ada", "analytical-engine")
	tok := e2eToken(t, c, app.URL, "analytical-engine")

	put := func(id, path, md string) (int, string, time.Duration) {
		t.Helper()
		u := app.URL + "/api/cards/" + id
		if path != "" {
			u += "?path=" + url.QueryEscape(path)
		}
		req, _ := http.NewRequest("PUT", u, strings.NewReader(md))
		req.Header.Set("Authorization", "Bearer "+tok)
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("PUT %s: %v (did the server die?)", id, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), time.Since(start)
	}
	alive := func(after string) {
		t.Helper()
		if code, _ := opsBody(t, app.URL+"/healthz"); code != 200 {
			t.Fatalf("after %s: /healthz %d", after, code)
		}
	}
	card := func(id, front, explanation string) string {
		md := editor.Template(id, "Hostile input")
		md = strings.Replace(md, "timing: {basics: 20s, solid: 40s, deeper: 90s}\n", "timing: {basics: 20s, solid: 40s, deeper: 90s}\n"+front, 1)
		if explanation != "" {
			md = strings.Replace(md, "The longer explanation, with examples. Markdown works here: lists, `code`, tables.", explanation, 1)
		}
		return md
	}
	measure := func(what string, fn func()) (time.Duration, int) {
		t.Helper()
		resetPeakRSS(t, pid)
		before := procStatusMB(t, pid, "VmRSS:")
		cpu := procCPU(t, pid)
		start := time.Now()
		fn()
		took := time.Since(start)
		extra := procStatusMB(t, pid, "VmHWM:") - before
		t.Logf("%-40s %6.2fs  server CPU %5.2fs  extra peak RSS %4d MB", what, took.Seconds(), (procCPU(t, pid) - cpu).Seconds(), extra)
		alive(what)
		return took, extra
	}

	// 1. A YAML alias bomb in simulation.overrides (9^9 values once expanded).
	bomb := "simulation:\n  preset: consumer-join\n  compare: [eager]\n  caption: boom\n  overrides:\n    l0: &l0 [x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 9; i++ {
		bomb += fmt.Sprintf("    l%d: &l%d [%s*l%d]\n", i, i, strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 8), i-1)
	}
	measure("YAML alias bomb", func() {
		code, body, _ := put("yaml-bomb", "99-hostile/yaml-bomb.md", card("yaml-bomb", bomb, ""))
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "aliases") {
			t.Errorf("YAML bomb: %d %.300s", code, body)
		}
	})

	// 2. A card comparing 2,000 variants (the audit's, 15 KB: over the front matter's size), and
	// one comparing 50 (within it: over the variants' count).
	for _, n := range []int{2000, 50} {
		variants := strings.TrimSuffix(strings.Repeat("eager, ", n), ", ")
		measure(fmt.Sprintf("%d variants", n), func() {
			code, body, _ := put("many-variants", "99-hostile/many-variants.md",
				card("many-variants", "simulation:\n  preset: consumer-join\n  compare: ["+variants+"]\n  caption: many\n", ""))
			if code != http.StatusUnprocessableEntity || !strings.Contains(body, "at most 4") && !strings.Contains(body, "the limit is 8 KiB") {
				t.Errorf("%d variants: %d %.300s", n, code, body)
			}
		})
	}

	// 3. A 1,000-member, 24-hour scenario: over a card's limits, refused before it runs.
	measure("1,000 members for 24 hours", func() {
		code, body, _ := put("huge-scenario", "99-hostile/huge-scenario.md",
			card("huge-scenario", "simulation:\n  preset: consumer-join\n  compare: [eager]\n  caption: huge\n  overrides:\n    members: 1000\n    events: []\n    duration_ms: 86400000\n", ""))
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "over a card's limits") {
			t.Errorf("huge scenario: %d %.300s", code, body)
		}
	})

	// 4. A make block of 10,000 "(" (the highlighter backtracked for 15 s): saved, and its page
	// renders with the block as plain text.
	parens := "```make\n" + strings.Repeat("(", 10000) + "\n```"
	measure("make block of 10,000 (", func() {
		if code, body, _ := put("parens", "99-hostile/parens.md", card("parens", "", parens)); code != http.StatusCreated {
			t.Fatalf("parens card: %d %.300s", code, body)
		}
		code, body := opsBody(t, app.URL+"/cards/parens")
		if code != 200 || !strings.Contains(body, "Shown without highlighting") {
			t.Errorf("parens card page: %d, note shown %v", code, strings.Contains(body, "Shown without highlighting"))
		}
	})

	// 5. Two revisions of 30,000 lines each: the history page answers in under 3 s with under
	// 300 MB of extra peak RSS.
	lines := func(s string) string { return strings.TrimSuffix(strings.Repeat(s+"\n", 30000), "\n") }
	if code, body, _ := put("long-history", "99-hostile/long-history.md", card("long-history", "", lines("a"))); code != http.StatusCreated {
		t.Fatalf("first revision: %d %.300s", code, body)
	}
	if code, body, _ := put("long-history", "", card("long-history", "", lines("b"))); code != http.StatusOK {
		t.Fatalf("second revision: %d %.300s", code, body)
	}
	// Only the server's answer is timed: parsing a page this long in the test (under -race) is
	// not what a user waits for.
	var histCode int
	var hist []byte
	took, extra := measure("history of two 30,000-line revisions", func() {
		resp, err := c.Get(app.URL + "/cards/long-history/history")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		histCode = resp.StatusCode
		hist, _ = io.ReadAll(resp.Body)
	})
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(hist))
	if err != nil {
		t.Fatal(err)
	}
	if histCode != 200 || doc.Find("#diff-coarse").Length() != 1 {
		t.Errorf("history: %d, coarse note %d", histCode, doc.Find("#diff-coarse").Length())
	}
	if took > 3*time.Second || extra > 300 {
		t.Errorf("history took %v and %d MB extra peak RSS; want under 3 s and 300 MB", took, extra)
	}

	// 6. Reserved ids.
	for _, id := range []string{"readme", "new"} {
		code, body, _ := put(id, "99-hostile/"+id+".md", card(id, "", ""))
		if code < 400 || code >= 500 || !strings.Contains(body, "reserved") && !strings.Contains(body, "README") {
			t.Errorf("id %s: %d %.300s", id, code, body)
		}
	}

	// 7. A token ends when its owner changes the password.
	resp, err := c.PostForm(app.URL+"/account/password", url.Values{"current": {"analytical-engine"},
		"password": {"difference-engine-2"}, "password2": {"difference-engine-2"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("password change: %d", resp.StatusCode)
	}
	if code, _, _ := put("after-password", "99-hostile/after-password.md", card("after-password", "", "")); code != http.StatusUnauthorized {
		t.Errorf("token after the password changed: %d, want 401", code)
	}
	alive("all attacks")
}

// e2eToken creates an API token on /account (which asks for the password) and returns it.
func e2eToken(t *testing.T, c *http.Client, base, password string) string {
	t.Helper()
	resp, doc := opsPostDoc(t, c, base+"/account/tokens", url.Values{"name": {"hostile"}, "password": {password}})
	tok := strings.TrimSpace(doc.Find("#token-value").Text())
	if resp.StatusCode != 200 || len(tok) < 40 {
		t.Fatalf("create a token: %d %q", resp.StatusCode, tok)
	}
	return tok
}

func opsPostDoc(t *testing.T, c *http.Client, u string, form url.Values) (*http.Response, *goquery.Document) {
	t.Helper()
	resp, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, doc
}

// A card file goes away (an upgrade merged it) while stored cards link to it in a chain: the
// server still starts, serves the rest, and /admin lists each card left out with the reason.
func TestStartupSkipsStoredCardsThatNoLongerLoad(t *testing.T) {
	parallelTest(t)
	content := t.TempDir()
	if err := os.CopyFS(content, os.DirFS("../content")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(content, "99-extra"), 0o755); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(content, "99-extra", "gone-card.md")
	if err := os.WriteFile(gone, []byte(editor.Template("gone-card", "Extra")), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	AddUser(t, dir, "ada", "analytical-engine", true)
	app := StartApp(t, dir, "--content", content)
	c := opsClient()
	opsLogin(t, c, app.URL, "ada", "analytical-engine")
	tok := e2eToken(t, c, app.URL, "analytical-engine")
	var puts []map[string]string
	prev := "gone-card"
	for i := 1; i <= 4; i++ {
		id := fmt.Sprintf("chain-%d", i)
		md := strings.Replace(editor.Template(id, "Extra"), "- The one-line answer an interviewer wants first",
			"- The one-line answer, after [the other card](/cards/"+prev+")", 1)
		puts = append(puts, map[string]string{"path": "99-extra/" + id + ".md", "markdown": md})
		prev = id
	}
	body, _ := json.Marshal(map[string]any{"put": puts})
	req, _ := http.NewRequest("POST", app.URL+"/api/cards", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("storing the chain: %d", resp.StatusCode)
	}
	app.Stop()
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	app = StartApp(t, dir, "--content", content) // fails the test if it does not start
	c = opsClient()
	opsLogin(t, c, app.URL, "ada", "analytical-engine")
	_, doc := opsDoc(t, c, app.URL+"/admin")
	skipped := doc.Find("#deck-skipped li")
	if skipped.Length() != 4 || !strings.Contains(skipped.First().Text(), "gone-card") {
		t.Errorf("/admin lists %d skipped cards: %q", skipped.Length(), doc.Find("#deck-skipped").Text())
	}
	if code, _ := opsBody(t, app.URL+"/cards/chain-1"); code != http.StatusNotFound {
		t.Errorf("a skipped card is served: %d", code)
	}
	if code, _ := opsBody(t, app.URL+"/cards/eager-pain-at-scale"); code != http.StatusOK {
		t.Errorf("the rest of the deck: %d", code)
	}
}

// apiPut sends a card's markdown to PUT /api/cards/{id} with a token.
func apiPut(t *testing.T, base, tok, id, path, md string) (int, string) {
	t.Helper()
	u := base + "/api/cards/" + id
	if path != "" {
		u += "?path=" + url.QueryEscape(path)
	}
	req, _ := http.NewRequest("PUT", u, strings.NewReader(md))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("PUT %s: %v", id, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
