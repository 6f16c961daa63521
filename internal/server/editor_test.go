package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/store"
)

// editableEnv serves a copy of the test deck from a temp content directory with the cards
// stored in the app laid over it, as `rehearse serve` does.
func editableEnv(t *testing.T) (*testEnv, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/deck")); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{ContentDir: dir})
	stored := func() (map[string][]byte, error) {
		cards, err := e.db.DeckCards(t.Context())
		m := map[string][]byte{}
		for _, c := range cards {
			m[c.Path] = []byte(c.Markdown)
		}
		return m, err
	}
	load := deckload.Layered(os.DirFS(dir), stored, func(f fs.FS) (*deck.Deck, error) { return deck.Load(f, deck.Options{}) })
	l, err := load()
	if err != nil {
		t.Fatal(err)
	}
	e.srv.decks = deckload.NewHolder(l, dir, load)
	return e, dir
}

// newCard is a valid card for the test deck's kafka folder.
func newCard(id string) string {
	return editor.Template(id, "Test topic") // the test deck's topic
}

func (e *testEnv) api(method, path, token, body string) (int, map[string]any) {
	e.t.Helper()
	req, _ := http.NewRequest(method, e.ts.URL+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Origin", "https://elsewhere.example") // a script: no browser same-origin marks
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		e.t.Fatalf("%s %s: %d, not JSON: %s", method, path, resp.StatusCode, b)
	}
	return resp.StatusCode, m
}

func (e *testEnv) token(name, role string) (string, *store.User) {
	e.t.Helper()
	u, err := e.db.CreateUser(e.t.Context(), name, "x", role, e.now)
	if err != nil {
		e.t.Fatal(err)
	}
	tok, digest := auth.NewToken()
	if _, err := e.db.CreateToken(e.t.Context(), u.ID, "ci", digest, e.now); err != nil {
		e.t.Fatal(err)
	}
	return tok, u
}

func TestCardsAPI(t *testing.T) {
	e, _ := editableEnv(t)
	tok, _ := e.token("ci", store.RoleAdmin)
	id := "api-written-card"

	// A new card: 201, then the card page serves it.
	status, body := e.api("PUT", "/api/cards/"+id, tok, newCard(id))
	if status != http.StatusCreated || body["path"] != "kafka/"+id+".md" {
		t.Fatalf("PUT new: %d %v", status, body)
	}
	if resp, doc := e.get(e.client(), "/cards/"+id); resp.StatusCode != 200 || !strings.Contains(doc.Find("h1").Text(), "TODO: the interview question?") {
		t.Fatalf("card page: %d", resp.StatusCode)
	}
	// The same text again: 200, nothing new; GET returns the markdown.
	if status, _ := e.api("PUT", "/api/cards/"+id, tok, newCard(id)); status != http.StatusOK {
		t.Errorf("PUT same: %d", status)
	}
	if status, body := e.api("GET", "/api/cards/"+id, tok, ""); status != 200 || body["markdown"] != newCard(id) || body["stored"] != true {
		t.Errorf("GET: %d %v", status, body)
	}
	// A broken card: 422 with every problem at its line; the stored text stays.
	broken := strings.Replace(strings.Replace(newCard(id), "## Basics", "## Basix", 1), "tags: [todo]", "tags: [Bad Tag]", 1)
	status, body = e.api("PUT", "/api/cards/"+id, tok, broken)
	errs, _ := body["errors"].([]any)
	if status != http.StatusUnprocessableEntity || len(errs) < 2 {
		t.Fatalf("PUT broken: %d %v", status, body)
	}
	first := errs[0].(map[string]any)
	if first["line"].(float64) != 5 || !strings.HasPrefix(first["text"].(string), "kafka/"+id+".md:5: ") {
		t.Errorf("first problem %v", first)
	}
	if _, body := e.api("GET", "/api/cards/"+id, tok, ""); body["markdown"] != newCard(id) {
		t.Error("a refused PUT changed the card")
	}
	// Renaming through the body, a bad id, an unknown folder, a card too big: each a 422 naming it.
	for _, tt := range []struct{ path, body, want string }{
		{"/api/cards/" + id, newCard("other-id"), "renaming is refused"},
		{"/api/cards/Bad_Id", newCard("x"), "Bad_Id"},
		{"/api/cards/" + id + "?path=elsewhere/" + id + ".md", newCard(id), "moving a card is refused"},
		{"/api/cards/fresh?path=a/b/fresh.md", newCard("fresh"), "not a topic folder"},
		{"/api/cards/fresh", newCard("fresh") + strings.Repeat("x", editor.MaxCardBytes), "the limit is 64 KiB"},
	} {
		status, body := e.api("PUT", tt.path, tok, tt.body)
		if b, _ := json.Marshal(body); status != http.StatusUnprocessableEntity || !strings.Contains(string(b), tt.want) {
			t.Errorf("PUT %s: %d %s, want 422 with %q", tt.path, status, b, tt.want)
		}
	}
	// A duplicate id from another file.
	existing, _ := e.srv.deck().Card("sample-eager")
	if status, body := e.api("PUT", "/api/cards/"+existing.ID+"?path=other/"+existing.ID+".md", tok, newCard(existing.ID)); status != 422 {
		t.Errorf("PUT over another file's id: %d %v", status, body)
	}

	// List, then DELETE the card written here; a card only in the files cannot be deleted.
	if status, body := e.api("GET", "/api/cards", tok, ""); status != 200 || len(body["cards"].([]any)) != e.srv.deck().Len() {
		t.Errorf("list: %d", status)
	}
	if status, body := e.api("DELETE", "/api/cards/"+id, tok, ""); status != 200 || body["deleted"] != true {
		t.Errorf("DELETE: %d %v", status, body)
	}
	if status, _ := e.api("DELETE", "/api/cards/"+existing.ID, tok, ""); status != http.StatusConflict {
		t.Errorf("DELETE of a file card: %d", status)
	}
}

func TestCardsAPIAuth(t *testing.T) {
	e, _ := editableEnv(t)
	memberTok, member := e.token("bob", store.RoleMember)
	if status, _ := e.api("GET", "/api/cards", "", ""); status != http.StatusUnauthorized {
		t.Errorf("no token: %d", status)
	}
	if status, _ := e.api("GET", "/api/cards", "nonsense", ""); status != http.StatusUnauthorized {
		t.Errorf("unknown token: %d", status)
	}
	// A member reads, but writes only once an admin allows members to edit.
	if status, _ := e.api("GET", "/api/cards", memberTok, ""); status != 200 {
		t.Errorf("member GET: %d", status)
	}
	if status, body := e.api("PUT", "/api/cards/by-member", memberTok, newCard("by-member")); status != http.StatusForbidden {
		t.Errorf("member PUT without permission: %d %v", status, body)
	}
	admin := e.signedIn("ada", store.RoleAdmin)
	if resp, _ := e.post(admin, "/admin/editing", url.Values{"members": {"1"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("allow members: %d", resp.StatusCode)
	}
	if status, _ := e.api("PUT", "/api/cards/by-member", memberTok, newCard("by-member")); status != http.StatusCreated {
		t.Errorf("member PUT with permission: %d", status)
	}
	// Revoked: 401 from then on.
	toks, _ := e.db.Tokens(t.Context(), member.ID)
	if err := e.db.RevokeToken(t.Context(), member.ID, toks[0].ID, e.now); err != nil {
		t.Fatal(err)
	}
	if status, body := e.api("GET", "/api/cards", memberTok, ""); status != http.StatusUnauthorized || !strings.Contains(body["error"].(string), "revoked") {
		t.Errorf("revoked token: %d %v", status, body)
	}
	// A cookie request from another site is still refused by the cross-origin check.
	req, _ := http.NewRequest("DELETE", e.ts.URL+"/api/cards/by-member", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := admin.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site cookie DELETE: %d", resp.StatusCode)
	}
}

func TestAccountTokens(t *testing.T) {
	e, _ := editableEnv(t)
	c := e.signedIn("ada", store.RoleMember)
	// A session alone cannot make a token: it takes the password.
	resp, doc := e.post(c, "/account/tokens", url.Values{"name": {"deck CI"}, "password": {"a guess"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#token-value").Length() != 0 ||
		!strings.Contains(doc.Find("#tokens .error").Text(), "not your current password") {
		t.Fatalf("create with a wrong password: %d %q", resp.StatusCode, doc.Find("#tokens").Text())
	}
	tok := createToken(t, e, c, "deck CI")
	if status, _ := e.api("GET", "/api/cards", tok, ""); status != 200 {
		t.Fatalf("new token: %d", status)
	}
	// Shown once: the account page lists it by name only.
	_, doc = e.get(c, "/account")
	if doc.Find("#token-value").Length() != 0 || !strings.Contains(doc.Find("#tokens").Text(), "deck CI") {
		t.Error("token shown again or not listed")
	}
	action, _ := doc.Find("#tokens form[action$='/revoke']").Attr("action")
	if resp, _ := e.post(c, action, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	if status, _ := e.api("GET", "/api/cards", tok, ""); status != http.StatusUnauthorized {
		t.Errorf("revoked: %d", status)
	}
}

// createToken makes an API token on /account with the test users' password.
func createToken(t *testing.T, e *testEnv, c *http.Client, name string) string {
	t.Helper()
	resp, doc := e.post(c, "/account/tokens", url.Values{"name": {name}, "password": {"not a real password"}})
	tok := doc.Find("#token-value").Text()
	if resp.StatusCode != 200 || len(tok) < 40 {
		t.Fatalf("create: %d %q", resp.StatusCode, tok)
	}
	return tok
}

// A stolen session must not become lasting API access: tokens end when the password changes,
// when an admin hands out a reset link, and when the account is disabled; an admin sees every
// live token and can end any.
func TestTokensEndWithTheirOwnersPassword(t *testing.T) {
	e, _ := editableEnv(t)
	admin := e.signedIn("root", store.RoleAdmin)
	ada := e.signedIn("ada", store.RoleMember)
	adaID := func() int64 {
		u, err := e.db.UserByName(context.Background(), "ada")
		if err != nil {
			t.Fatal(err)
		}
		return u.ID
	}()
	live := func(tok string) bool { status, _ := e.api("GET", "/api/cards", tok, ""); return status == 200 }

	tok := createToken(t, e, ada, "one")
	resp, _ := e.post(ada, "/account/password", url.Values{"current": {"not a real password"}, "password": {"a new long passphrase"}, "password2": {"a new long passphrase"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("password change: %d", resp.StatusCode)
	}
	if live(tok) {
		t.Error("a token survived its owner's password change")
	}
	if err := e.db.SetPassword(context.Background(), adaID, dummyHash, e.now); err != nil { // back to the test password
		t.Fatal(err)
	}
	ada = e.client()
	if resp, _ := e.post(ada, "/login", url.Values{"username": {"ada"}, "password": {"not a real password"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login again: %d", resp.StatusCode)
	}

	tok = createToken(t, e, ada, "two")
	if resp, _ := e.post(admin, fmt.Sprintf("/admin/users/%d/reset", adaID), nil); resp.StatusCode != http.StatusCreated {
		t.Fatalf("reset link: %d", resp.StatusCode)
	}
	if live(tok) {
		t.Error("a token survived an admin's reset link")
	}

	tok = createToken(t, e, ada, "three")
	e.post(admin, fmt.Sprintf("/admin/users/%d/disable", adaID), nil)
	e.post(admin, fmt.Sprintf("/admin/users/%d/enable", adaID), nil)
	if live(tok) {
		t.Error("a token survived disable then enable")
	}

	ada = e.client()
	e.post(ada, "/login", url.Values{"username": {"ada"}, "password": {"not a real password"}})
	tok = createToken(t, e, ada, "four")
	_, doc := e.get(admin, "/admin")
	row := doc.Find("#admin-tokens li").FilterFunction(func(_ int, s *goquery.Selection) bool { return strings.Contains(s.Text(), "four") })
	action, ok := row.Find("form").Attr("action")
	if !ok || !strings.Contains(row.Text(), "ada") {
		t.Fatalf("admin page does not list ada's token: %q", doc.Find("#tokens").Text())
	}
	if resp, _ := e.post(admin, action, nil); resp.StatusCode != http.StatusSeeOther || live(tok) {
		t.Errorf("admin revoke: %d, still live %v", resp.StatusCode, live(tok))
	}
	if resp, _ := e.post(ada, action, nil); resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusNotFound {
		t.Errorf("a member used the admin revoke: %d", resp.StatusCode)
	}
}

func TestEditorSaveHistoryRestore(t *testing.T) {
	e, _ := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)
	member := e.signedIn("bob", store.RoleMember)
	if resp, _ := e.get(member, "/cards/new"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("member editor: %d", resp.StatusCode)
	}
	resp, doc := e.get(admin, "/cards/new")
	folder, _ := doc.Find("#editor-folder option[selected]").Attr("value")
	if resp.StatusCode != 200 || folder != "kafka" || !strings.Contains(doc.Find("#editor-md").Text(), "## Pitfalls") {
		t.Fatalf("new card page: %d folder %q", resp.StatusCode, folder)
	}
	id := "written-in-editor"
	broken := strings.Replace(newCard(id), "## Basics", "## Basix", 1)
	// Save refuses a broken card, lists the problem at its line, and keeps the text.
	resp, doc = e.post(admin, "/cards/new", url.Values{"folder": {"kafka"}, "md": {broken}, "action": {"save"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#editor-md").Text() != broken ||
		!strings.Contains(doc.Find(".editor-errors li[data-line='14']").Text(), "unknown section") ||
		doc.Find("#editor-gutter .bad[data-line='14']").Length() != 1 {
		t.Fatalf("broken save: %d %q", resp.StatusCode, doc.Find("#editor-errors").Text())
	}
	// The live pane (what the script fetches) says the same.
	_, doc = e.post(admin, "/editor/preview", url.Values{"folder": {"kafka"}, "md": {broken}})
	if !strings.Contains(doc.Find(".editor-errors").Text(), "unknown section") {
		t.Errorf("preview pane: %q", doc.Text())
	}
	// Without JS, the Preview button renders the card beside the text, and saves nothing.
	resp, doc = e.post(admin, "/cards/new", url.Values{"folder": {"kafka"}, "md": {newCard(id)}, "action": {"preview"}})
	if resp.StatusCode != 200 || doc.Find("#editor-card #editor-question").Text() != "TODO: the interview question?" || doc.Find("#editor-ok").Length() != 1 {
		t.Fatalf("preview: %d %q", resp.StatusCode, doc.Find("#editor-live").Text())
	}
	if _, ok := e.srv.deck().Card(id); ok {
		t.Fatal("preview saved the card")
	}
	// Saved once fixed; edited; both revisions listed; the first restored.
	if resp, _ := e.post(admin, "/cards/new", url.Values{"folder": {"kafka"}, "md": {newCard(id)}, "action": {"save"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", resp.StatusCode)
	}
	edited := strings.Replace(newCard(id), "The one-line answer", "The edited answer", 1)
	if resp, _ := e.post(admin, "/cards/"+id+"/edit", url.Values{"md": {edited}, "action": {"save"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d", resp.StatusCode)
	}
	// Renaming in the editor is refused.
	if resp, doc := e.post(admin, "/cards/"+id+"/edit", url.Values{"md": {newCard("renamed")}, "action": {"save"}}); resp.StatusCode != 422 || !strings.Contains(doc.Find(".editor-errors").Text(), "renaming is refused") {
		t.Errorf("rename: %d", resp.StatusCode)
	}
	_, doc = e.get(admin, "/cards/"+id+"/history")
	if n := doc.Find("#history li").Length(); n != 2 || !strings.Contains(doc.Find("#diff .add").Text(), "The edited answer") || !strings.Contains(doc.Find("#diff .del").Text(), "The one-line answer") {
		t.Fatalf("history: %d revisions, diff %q", n, doc.Find("#diff").Text())
	}
	firstRev, _ := doc.Find("#history li").Last().Find("input[name=rev]").Attr("value")
	if resp, _ := e.post(admin, "/cards/"+id+"/restore", url.Values{"rev": {firstRev}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("restore: %d", resp.StatusCode)
	}
	c, _ := e.srv.deck().Card(id)
	if c == nil || !strings.Contains(c.Answer[0].Text(), "The one-line answer") {
		t.Fatal("restore did not bring the first text back")
	}
	_, doc = e.get(admin, "/cards/"+id+"/history")
	if doc.Find("#history li").Length() != 3 || !strings.Contains(doc.Find("#history li").First().Text(), "restore") {
		t.Errorf("history after restore: %q", doc.Find("#history").Text())
	}
}

// Editing a bundled card is an override that can be reverted to the file's text.
func TestEditorOverrideAndRevert(t *testing.T) {
	e, dir := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)
	c := e.srv.deck().Cards[0]
	orig, err := os.ReadFile(dir + "/" + c.File)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(orig), "## Answer\n", "## Answer\n\n- Overridden here\n", 1)
	if resp, doc := e.post(admin, "/cards/"+c.ID+"/edit", url.Values{"md": {edited}, "action": {"save"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("override: %d %q", resp.StatusCode, doc.Find("#editor-errors").Text())
	}
	if after, _ := os.ReadFile(dir + "/" + c.File); string(after) != string(orig) {
		t.Fatal("the card file was written")
	}
	if got, _ := e.srv.deck().Card(c.ID); got.Answer[0].Text() != "Overridden here" {
		t.Fatalf("override not served: %q", got.Answer[0].Text())
	}
	_, doc := e.get(admin, "/cards/"+c.ID+"/edit")
	if doc.Find("#editor-revert").Length() != 1 {
		t.Fatal("no revert offered for an override")
	}
	if resp, _ := e.post(admin, "/cards/"+c.ID+"/revert", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("revert: %d", resp.StatusCode)
	}
	if got, _ := e.srv.deck().Card(c.ID); got.Answer[0].Text() == "Overridden here" {
		t.Fatal("revert did not bring the bundled text back")
	}
}

// Two new cards linking to each other cannot arrive one at a time, but pass as one batch.
func TestCardsAPIBatchLinkedCards(t *testing.T) {
	e, _ := editableEnv(t)
	tok, _ := e.token("ci", store.RoleAdmin)
	a := strings.Replace(newCard("card-a"), "Its short answer.", "See [the other](/cards/card-b).", 1)
	b := strings.Replace(newCard("card-b"), "Its short answer.", "See [the other](/cards/card-a).", 1)
	status, body := e.api("PUT", "/api/cards/card-a", tok, a)
	if status != http.StatusUnprocessableEntity || !strings.Contains(body["errors"].([]any)[0].(map[string]any)["message"].(string), "card-b") {
		t.Fatalf("lone linked card: %d %v", status, body)
	}
	batch, _ := json.Marshal(map[string]any{"put": []map[string]string{{"path": "kafka/card-a.md", "markdown": a}, {"path": "kafka/card-b.md", "markdown": b}}})
	status, body = e.api("POST", "/api/cards", tok, string(batch))
	if status != 200 || len(body["created"].([]any)) != 2 {
		t.Fatalf("batch: %d %v", status, body)
	}
	// Deleting one alone would leave a dead link: refused with the problem; both together pass.
	if status, body := e.api("DELETE", "/api/cards/card-a", tok, ""); status != http.StatusConflict || !strings.Contains(fmtJSON(body), "card-b.md") {
		t.Errorf("delete linked: %d %v", status, body)
	}
	both, _ := json.Marshal(map[string]any{"delete": []string{"card-a", "card-b"}})
	if status, body := e.api("POST", "/api/cards", tok, string(both)); status != 200 || len(body["deleted"].([]any)) != 2 {
		t.Errorf("batch delete: %d %v", status, body)
	}
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// The editor evaluates the simulation's expect: claims live; a false one blocks the save at its line.
func TestEditorExpectations(t *testing.T) {
	e, _ := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)
	sim := "simulation:\n  preset: consumer-rolling-restart\n  compare: [eager, cooperative]\n  caption: Eager stops everyone.\n  expect:\n    cooperative.stop_the_world_rebalances: 0\n    eager.stop_the_world_rebalances: 99\n"
	md := strings.Replace(newCard("with-claims"), "timing: {basics: 20s, solid: 40s, deeper: 90s}\n", "timing: {basics: 20s, solid: 40s, deeper: 90s}\n"+sim, 1)
	_, doc := e.post(admin, "/editor/preview", url.Values{"folder": {"kafka"}, "md": {md}})
	if ok := doc.Find("#editor-expect li.ok").Text(); !strings.Contains(ok, "cooperative.stop_the_world_rebalances") {
		t.Errorf("holding claim not shown: %q", doc.Find("#editor-expect").Text())
	}
	bad := doc.Find("#editor-expect li.bad")
	if line, _ := bad.Attr("data-line"); line != "13" || !strings.Contains(bad.Text(), "expect eager.stop_the_world_rebalances = 99, got") {
		t.Errorf("false claim: line %q %q", line, bad.Text())
	}
	resp, doc := e.post(admin, "/cards/new", url.Values{"folder": {"kafka"}, "md": {md}, "action": {"save"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find(".editor-errors li[data-line='13']").Length() != 1 {
		t.Errorf("save with a false claim: %d %q", resp.StatusCode, doc.Find("#editor-errors").Text())
	}
}

// A member-written card whose spoken answer runs over its clock is saved, with a warning shown
// beside it; only the bundled deck's strict check refuses such a card.
func TestEditorLongAnswerWarnsAndSaves(t *testing.T) {
	e, _ := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)
	id := "runs-long"
	long := strings.Replace(newCard(id), "## Solid answer\n", "## Solid answer\n\n"+strings.Repeat("word ", 130)+"\n", 1)
	_, doc := e.post(admin, "/editor/preview", url.Values{"folder": {"kafka"}, "md": {long}})
	if !strings.Contains(doc.Find("#editor-warnings").Text(), `section "Solid answer" runs`) || doc.Find(".editor-errors").Length() != 0 {
		t.Fatalf("preview: warnings %q errors %q", doc.Find("#editor-warnings").Text(), doc.Find(".editor-errors").Text())
	}
	resp, _ := e.post(admin, "/cards/new", url.Values{"folder": {"kafka"}, "md": {long}, "action": {"save"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d, want a redirect to the saved card", resp.StatusCode)
	}
	if _, ok := e.srv.deck().Card(id); !ok {
		t.Error("the saved card is not in the deck")
	}
}
