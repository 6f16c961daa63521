package server

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/store"
)

const importFixtures = "../importer/testdata/import/"

// part is one multipart field: a file when file is set.
type part struct{ name, file, value string }

func (e *testEnv) postMultipart(c *http.Client, path string, parts ...part) (*http.Response, *goquery.Document) {
	e.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, p := range parts {
		var err error
		if p.file != "" {
			var w interface{ Write([]byte) (int, error) }
			if w, err = mw.CreateFormFile(p.name, p.file); err == nil {
				_, err = w.Write([]byte(p.value))
			}
		} else {
			err = mw.WriteField(p.name, p.value)
		}
		if err != nil {
			e.t.Fatal(err)
		}
	}
	mw.Close()
	resp, err := c.Post(e.ts.URL+path, mw.FormDataContentType(), &body)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, doc
}

func fixture(t *testing.T, name string) part {
	t.Helper()
	b, err := os.ReadFile(importFixtures + name)
	if err != nil {
		t.Fatal(err)
	}
	return part{name: "files", file: name, value: string(b)}
}

const staticID = "static-membership-change-consumer-restarts" // the id complete.txt becomes

func TestImportPreview(t *testing.T) {
	e := newEnv(t, Config{}) // a deck built in memory: nothing to save into
	admin := e.signedIn("ada", store.RoleAdmin)

	resp, doc := e.get(admin, "/admin")
	if href, _ := doc.Find("#import-link").Attr("href"); resp.StatusCode != 200 || href != "/admin/import" {
		t.Fatalf("admin page: %d, import link %q", resp.StatusCode, href)
	}
	resp, doc = e.get(admin, "/admin/import")
	if resp.StatusCode != 200 || doc.Find("#import-form[enctype='multipart/form-data'] input[type=file][name=files][multiple]").Length() != 1 {
		t.Fatalf("upload form: %d", resp.StatusCode)
	}
	if !strings.Contains(doc.Find("#save-unavailable").Text(), "not loaded from files") {
		t.Errorf("upload page does not explain that saving is unavailable: %q", doc.Find("#save-unavailable").Text())
	}

	resp, doc = e.postMultipart(admin, "/admin/import", fixture(t, "complete.txt"), fixture(t, "missing.txt"))
	if resp.StatusCode != 200 {
		t.Fatalf("preview: %d: %s", resp.StatusCode, doc.Find("main").Text())
	}
	if n := doc.Find("article.import-card").Length(); n != 2 {
		t.Fatalf("%d previewed cards, want 2", n)
	}
	first := doc.Find("#import-1")
	if got := first.Find("h3.question").Text(); got != "What does static membership change about consumer restarts?" {
		t.Errorf("question = %q", got)
	}
	if n := first.Find("ol.levels > li").Length(); n != 4 {
		t.Errorf("go deeper levels = %d, want 4", n)
	}
	if first.Find(".import-problems li").Length() != 0 || first.Find(".import-clean").Length() != 1 {
		t.Errorf("complete.txt reported problems: %q", first.Find(".import-problems").Text())
	}
	if md := first.Find("textarea.import-md[readonly][name=md]").Text(); !strings.Contains(md, "id: "+staticID) {
		t.Errorf("markdown textarea: %q", md)
	}
	if got := strings.TrimSpace(first.Find(".import-download button").Text()); got != "Download "+staticID+".md" {
		t.Errorf("download button = %q", got)
	}
	second := doc.Find("#import-2")
	var probs []string
	second.Find(".import-problems li").Each(func(_ int, li *goquery.Selection) { probs = append(probs, li.Text()) })
	if len(probs) == 0 || !strings.HasPrefix(probs[0], "missing.txt:") || !strings.Contains(strings.Join(probs, "\n"), "basics") {
		t.Errorf("missing.txt problems = %q, want FILE:line messages naming the missing basics", probs)
	}
	if second.Find("h3.question").Length() != 1 {
		t.Error("a card with TODO placeholders should still preview")
	}
	// No save button, and the reason is given.
	if doc.Find("#import-save").Length() != 0 || !strings.Contains(doc.Find("#save-unavailable").Text(), "not loaded from files") {
		t.Errorf("save offered without a content directory: %q", doc.Find("#save-unavailable").Text())
	}
	// Two cards on one page: ids stay unique.
	seen := map[string]bool{}
	doc.Find("[id]").Each(func(_ int, s *goquery.Selection) {
		id, _ := s.Attr("id")
		if seen[id] {
			t.Errorf("duplicate id %q on the preview page", id)
		}
		seen[id] = true
	})
}

func TestImportRefusesBadUploads(t *testing.T) {
	e := newEnv(t, Config{})
	admin := e.signedIn("ada", store.RoleAdmin)
	many := make([]part, importMaxFiles+1)
	for i := range many {
		many[i] = part{name: "files", file: "c.txt", value: "Q?\n"}
	}
	cases := []struct {
		name  string
		parts []part
		want  string
	}{
		{"no file", []part{{name: "files", file: "", value: ""}}, "Choose one or more"},
		{"too many", many, "at most 50"},
		{"too large", []part{{name: "files", file: "big.txt", value: strings.Repeat("x", importMaxFile+1)}}, "big.txt"},
	}
	for _, c := range cases {
		resp, doc := e.postMultipart(admin, "/admin/import", c.parts...)
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find("#files-error").Text(), c.want) {
			t.Errorf("%s: %d %q, want 422 mentioning %q", c.name, resp.StatusCode, doc.Find("#files-error").Text(), c.want)
		}
	}
	resp, doc := e.post(admin, "/admin/import", url.Values{"files": {"x"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#files-error").Text() == "" {
		t.Errorf("url-encoded upload: %d", resp.StatusCode)
	}
}

func TestImportSaveAndReload(t *testing.T) {
	e, dir := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)

	_, doc := e.postMultipart(admin, "/admin/import", fixture(t, "complete.txt"))
	form := doc.Find("form#import-save")
	if form.Length() != 1 || doc.Find("#save-unavailable").Length() != 0 {
		t.Fatalf("no save form for a writable content directory: %q", doc.Find("#save-unavailable").Text())
	}
	var parts []part
	form.Find("input[type=hidden]").Each(func(_ int, in *goquery.Selection) {
		n, _ := in.Attr("name")
		v, _ := in.Attr("value")
		parts = append(parts, part{name: n, value: strings.ReplaceAll(v, "\n", "\r\n")}) // as a browser sends it
	})
	if len(parts) != 2 {
		t.Fatalf("hidden fields: %d, want name and md", len(parts))
	}
	resp, doc := e.postMultipart(admin, "/admin/import/save", parts...)
	if resp.StatusCode != 200 {
		t.Fatalf("save: %d: %s", resp.StatusCode, doc.Find("main").Text())
	}
	if got := doc.Find(".import-results li.saved code").Text(); got != "imported/"+staticID+".md" {
		t.Errorf("saved path shown = %q", got)
	}
	if !strings.Contains(doc.Find("#import-reload").Text(), "reloaded") {
		t.Errorf("reload outcome = %q", doc.Find("#import-reload").Text())
	}
	// Saved in the app, not in the content directory, with plain line ends.
	if _, err := os.Stat(filepath.Join(dir, "imported")); !os.IsNotExist(err) {
		t.Error("the import wrote into the content directory")
	}
	stored, err := e.db.DeckCards(t.Context())
	if err != nil || len(stored) != 1 {
		t.Fatalf("stored cards: %v %v", stored, err)
	}
	if written := stored[0].Markdown; strings.Contains(written, "\r") || !strings.HasPrefix(written, "---\nid: "+staticID+"\n") {
		t.Errorf("stored card starts %q", written[:min(60, len(written))])
	}
	if _, ok := e.srv.deck().Card(staticID); !ok {
		t.Fatal("the reloaded deck lacks the imported card")
	}
	if resp, _ := e.get(admin, "/cards/"+staticID); resp.StatusCode != 200 {
		t.Errorf("card page after import: %d", resp.StatusCode)
	}

	// The same card again: its id is now in the deck, and the file is left alone.
	resp, doc = e.postMultipart(admin, "/admin/import/save", parts...)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(".import-results li.refused").Text(), "already has a card") {
		t.Errorf("second save: %d %q", resp.StatusCode, doc.Find(".import-results").Text())
	}

	// A card whose question is close to an existing one is flagged, not refused.
	src, _ := os.ReadFile(importFixtures + "complete.txt")
	similar := strings.Replace(string(src), "What does static membership change about consumer restarts?", "What changes about consumer restarts with static membership?", 1)
	similar = strings.Replace(similar, "What does static membership change", "What changes", 1)
	_, doc = e.postMultipart(admin, "/admin/import", part{name: "files", file: "again.txt", value: similar})
	if !strings.Contains(doc.Find("#import-1 .import-similar").Text(), staticID) {
		t.Errorf("similar question not flagged: %q", doc.Find("#import-1").Text())
	}

	// Markdown that does not parse is refused with its problems.
	resp, doc = e.post(admin, "/admin/import/save", url.Values{"name": {"bad.txt"}, "md": {"---\nid: Bad Id\n---\n"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(".import-results li.refused").Text(), "bad.txt:") {
		t.Errorf("invalid card: %d %q", resp.StatusCode, doc.Find(".import-results").Text())
	}
}

func TestImportSaveUnavailable(t *testing.T) {
	e := newEnv(t, Config{}) // a deck built in memory has no files to lay cards over
	admin := e.signedIn("ada", store.RoleAdmin)
	src, _ := os.ReadFile(importFixtures + "complete.md")
	resp, doc := e.post(admin, "/admin/import/save", url.Values{"md": {string(src)}})
	if resp.StatusCode != http.StatusConflict || !strings.Contains(doc.Find("main").Text(), "not loaded from files") {
		t.Errorf("save %d %q", resp.StatusCode, doc.Find("main .error").Text())
	}
}

func TestImportDownload(t *testing.T) {
	e := newEnv(t, Config{})
	admin := e.signedIn("ada", store.RoleAdmin)
	src, err := os.ReadFile(importFixtures + "complete.md")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := admin.PostForm(e.ts.URL+"/admin/import/download", url.Values{"md": {strings.ReplaceAll(string(src), "\n", "\r\n")}})
	if err != nil {
		t.Fatal(err)
	}
	body := new(bytes.Buffer)
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("download: %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/markdown; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	if cd := resp.Header.Get("Content-Disposition"); cd != `attachment; filename="`+staticID+`.md"` {
		t.Errorf("Content-Disposition = %q", cd)
	}
	if !bytes.Equal(body.Bytes(), src) {
		t.Errorf("downloaded body differs from the card (CRLF not normalised?)")
	}
	// A card that does not parse (here: an id that is no slug) is refused, never put in a header.
	bad := strings.Replace(string(src), "id: "+staticID, `id: "x\"; evil=1"`, 1)
	r2, doc := e.post(admin, "/admin/import/download", url.Values{"md": {bad}})
	if r2.StatusCode != http.StatusUnprocessableEntity || r2.Header.Get("Content-Disposition") != "" || !strings.Contains(doc.Find("main").Text(), "does not parse") {
		t.Errorf("bad id: %d %q", r2.StatusCode, r2.Header.Get("Content-Disposition"))
	}
}

func TestImportMemberForbidden(t *testing.T) {
	e, _ := editableEnv(t)
	member := e.signedIn("bob", store.RoleMember)
	if resp, _ := e.get(member, "/admin/import"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET as member: %d", resp.StatusCode)
	}
	if resp, _ := e.postMultipart(member, "/admin/import", fixture(t, "complete.txt")); resp.StatusCode != http.StatusForbidden {
		t.Errorf("upload as member: %d", resp.StatusCode)
	}
	src, _ := os.ReadFile(importFixtures + "complete.md")
	for _, path := range []string{"/admin/import/save", "/admin/import/download"} {
		if resp, _ := e.post(member, path, url.Values{"md": {string(src)}}); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s as member: %d", path, resp.StatusCode)
		}
	}
	if cards, _ := e.db.DeckCards(t.Context()); len(cards) != 0 {
		t.Error("a member's save stored a card")
	}
}

func TestImportSaveReportsReloadErrors(t *testing.T) {
	e, dir := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)
	// A broken card lands in the content directory after the deck was loaded.
	if err := os.WriteFile(filepath.Join(dir, "kafka", "broken.md"), []byte("---\nid: broken\n---\n\nno sections\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile(importFixtures + "complete.md")
	resp, doc := e.post(admin, "/admin/import/save", url.Values{"name": {"complete.txt"}, "md": {string(src)}})
	if resp.StatusCode != 200 || doc.Find(".import-results li.saved").Length() != 1 {
		t.Fatalf("save: %d %q", resp.StatusCode, doc.Find(".import-results").Text())
	}
	where := doc.Find("#import-reload .deck-errors .where").First().Text()
	if !strings.HasPrefix(strings.Join(strings.Fields(where), ""), "kafka/broken.md:") {
		t.Errorf("reload error location = %q, want kafka/broken.md:LINE", where)
	}
	if _, ok := e.srv.deck().Card(staticID); ok {
		t.Error("a failed reload swapped in a deck")
	}
	if cards, _ := e.db.DeckCards(t.Context()); len(cards) != 1 {
		t.Errorf("the card was not stored: %v", cards)
	}
}

// The preview runs Save's own checks: what it flags, Save refuses, and what it lets through
// (a spoken answer over its clock is only a warning), Save accepts. A refused save shows the
// card's text and preview again. A binary upload is refused in one line.
func TestImportPreviewShowsWhatSaveRefuses(t *testing.T) {
	e, _ := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)

	resp, doc := e.postMultipart(admin, "/admin/import", fixture(t, "long-solid.txt"))
	item := doc.Find("#import-1")
	if resp.StatusCode != 200 || !strings.Contains(item.Find(".import-warnings").Text(), `section "Solid answer" runs 124 words`) {
		t.Fatalf("preview %d: warnings %q", resp.StatusCode, item.Find(".import-warnings").Text())
	}
	if item.Find(".import-notes").Length() != 0 || item.Find(".import-clean").Length() != 0 {
		t.Errorf("a card with warnings claims no problems, or is refused: %q", item.Text())
	}
	parts := saveParts(doc)
	if len(parts) != 2 {
		t.Fatalf("the over-long card is not offered for saving: %d hidden fields", len(parts))
	}
	resp, doc = e.postMultipart(admin, "/admin/import/save", parts...)
	if resp.StatusCode != 200 || doc.Find(".import-results li.saved").Length() != 1 {
		t.Fatalf("save of a card with warnings: %d %q", resp.StatusCode, doc.Find(".import-results").Text())
	}

	// Now its id is taken: the preview says Save would refuse it and offers nothing to save.
	_, doc = e.postMultipart(admin, "/admin/import", fixture(t, "long-solid.txt"))
	if !strings.Contains(doc.Find("#import-1 .import-notes").Text(), "already has a card") || doc.Find("#import-save").Length() != 0 {
		t.Errorf("preview of a taken id: notes %q, save form %d", doc.Find("#import-1 .import-notes").Text(), doc.Find("#import-save").Length())
	}

	// A refused save keeps the text and the preview.
	resp, doc = e.postMultipart(admin, "/admin/import/save", parts...)
	refused := doc.Find(".import-results li.refused")
	if resp.StatusCode != http.StatusUnprocessableEntity || refused.Length() != 1 {
		t.Fatalf("refused save: %d %q", resp.StatusCode, doc.Find(".import-results").Text())
	}
	if md := refused.Find("textarea.import-md").Text(); !strings.Contains(md, "## Solid answer") {
		t.Errorf("the refused card's markdown is gone: %q", md)
	}
	if q := refused.Find("details.import-refused h3.question").Text(); !strings.HasPrefix(q, "How did Kafka Connect stop") {
		t.Errorf("the refused card's preview is gone: %q", q)
	}

	// An Anki package or a PDF: one line, nothing imported.
	for name, data := range map[string]string{"deck.apkg": "PK\x03\x04\x14\x00\x08\x00collection.anki2\x00", "notes.pdf": "%PDF-1.7\n%\xe2\xe3"} {
		resp, doc = e.postMultipart(admin, "/admin/import", part{name: "files", file: name, value: data})
		msg := doc.Find("#files-error").Text()
		if resp.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(msg, name+": not a plain-text card file") || strings.Contains(msg, "\n") {
			t.Errorf("%s: %d %q", name, resp.StatusCode, msg)
		}
	}
}

// saveParts are the hidden fields of the preview's save form, as a browser sends them.
func saveParts(doc *goquery.Document) []part {
	var parts []part
	doc.Find("form#import-save input[type=hidden]").Each(func(_ int, in *goquery.Selection) {
		n, _ := in.Attr("name")
		v, _ := in.Attr("value")
		parts = append(parts, part{name: n, value: strings.ReplaceAll(v, "\n", "\r\n")})
	})
	return parts
}

func TestImportAddressRedirects(t *testing.T) {
	e := newEnv(t, Config{})
	admin := e.signedIn("ada", store.RoleAdmin)
	resp, _ := e.get(admin, "/import")
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusMovedPermanently || loc != "/admin/import" {
		t.Errorf("GET /import: %d to %q", resp.StatusCode, loc)
	}
}

// A 404 while signed in keeps the signed-in header.
func TestNotFoundSignedIn(t *testing.T) {
	e := newEnv(t, Config{})
	member := e.signedIn("bea", store.RoleMember)
	resp, doc := e.get(member, "/no/such/page")
	if resp.StatusCode != http.StatusNotFound || doc.Find("#login-link").Length() != 0 || doc.Find("#logout").Length() != 1 {
		t.Errorf("404 signed in: %d, login link %d, logout %d", resp.StatusCode, doc.Find("#login-link").Length(), doc.Find("#logout").Length())
	}
	resp, doc = e.get(e.client(), "/no/such/page")
	if resp.StatusCode != http.StatusNotFound || doc.Find("#login-link").Length() != 1 {
		t.Errorf("404 anonymous: %d, login link %d", resp.StatusCode, doc.Find("#login-link").Length())
	}
}
