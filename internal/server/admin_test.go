package server

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/store"
)

// linkPath returns the path of the one-time link shown after creating an invite or reset.
func (e *testEnv) createLink(c *http.Client, path string, form url.Values, base string) string {
	e.t.Helper()
	resp, doc := e.post(c, path, form)
	if resp.StatusCode != http.StatusCreated {
		e.t.Fatalf("POST %s: status %d: %s", path, resp.StatusCode, doc.Find("main").Text())
	}
	link, _ := doc.Find(".created-link").First().Attr("value")
	if !strings.HasPrefix(link, base) {
		e.t.Fatalf("link %q does not start with %q", link, base)
	}
	return strings.TrimPrefix(link, base)
}

func TestAdminInviteSignup(t *testing.T) {
	var logs bytes.Buffer
	e := newEnv(t, Config{BaseURL: "https://rehearse.example.com"})
	e.srv.log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	admin := e.signedIn("ada", store.RoleAdmin)

	// Bad duration: 422 with the message by the field.
	resp, doc := e.post(admin, "/admin/invites", url.Values{"role": {"member"}, "days": {"90"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#days-error").Text() == "" {
		t.Fatalf("bad days: %d %q", resp.StatusCode, doc.Find("#days-error").Text())
	}
	path := e.createLink(admin, "/admin/invites", url.Values{"role": {"member"}, "days": {"7"}}, "https://rehearse.example.com")
	if !strings.HasPrefix(path, "/invite/") {
		t.Fatalf("invite path %q", path)
	}
	token := strings.TrimPrefix(path, "/invite/")

	// Only the digest is stored.
	if n := countRows(t, e.db, "SELECT count(*) FROM invites WHERE token_hash = ?", auth.Digest(token)); n != 1 {
		t.Fatalf("invite rows by digest: %d", n)
	}

	guest := e.client()
	resp, doc = e.get(guest, path)
	if resp.StatusCode != 200 || !strings.Contains(doc.Find("main").Text(), "member") {
		t.Fatalf("invite page: %d", resp.StatusCode)
	}
	resp, doc = e.post(guest, path, url.Values{"username": {"bad name"}, "password": {"longenough"}, "password2": {"different!"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#username-error").Length() != 1 || doc.Find("#password2-error").Length() != 1 {
		t.Fatalf("bad signup: %d", resp.StatusCode)
	}
	resp, doc = e.post(guest, path, url.Values{"username": {"ADA"}, "password": {"longenough"}, "password2": {"longenough"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find("#username-error").Text(), "taken") {
		t.Fatalf("taken name: %d", resp.StatusCode)
	}
	resp, _ = e.post(guest, path, url.Values{"username": {"grace"}, "password": {"longenough"}, "password2": {"longenough"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("signup: %d", resp.StatusCode)
	}
	_, doc = e.get(guest, "/account")
	if doc.Find("#account-name").Text() != "grace" {
		t.Fatal("not signed in as the new member after signing up")
	}
	// Single use.
	if resp, _ := e.get(e.client(), path); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("used invite: %d, want 404", resp.StatusCode)
	}
	// Members are refused on admin pages.
	for _, p := range []string{"/admin"} {
		if resp, _ := e.get(guest, p); resp.StatusCode != http.StatusForbidden {
			t.Fatalf("member on %s: %d", p, resp.StatusCode)
		}
	}
	if resp, _ := e.post(guest, "/admin/invites", url.Values{"role": {"admin"}}); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("member creating an invite: %d", resp.StatusCode)
	}
	_, doc = e.get(admin, "/admin")
	if got := doc.Find("#invites tbody tr").First().Find("td.status").Text(); got != "used by grace" {
		t.Fatalf("invite status = %q", got)
	}
	if doc.Find("#users td.name").Length() != 2 {
		t.Fatal("user list incomplete")
	}
	// Nothing secret reached the log.
	if s := logs.String(); strings.Contains(s, token) || strings.Contains(s, "longenough") || !strings.Contains(s, "/invite/REDACTED") {
		t.Fatalf("log leaks a secret or lacks the redacted path:\n%s", s)
	}
}

// countRows reads the database file directly, as someone holding a copy of it could.
func countRows(t *testing.T, db *store.DB, q string, args ...any) int {
	t.Helper()
	raw, err := sql.Open("sqlite", db.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAdminDisableAndReset(t *testing.T) {
	e := newEnv(t, Config{})
	admin := e.signedIn("ada", store.RoleAdmin)
	member := e.signedIn("bob", store.RoleMember)
	bob, _ := e.db.UserByName(context.Background(), "bob")
	me, _ := e.db.UserByName(context.Background(), "ada")

	if resp, _ := e.post(admin, fmt.Sprintf("/admin/users/%d/disable", me.ID), nil); resp.StatusCode != http.StatusConflict {
		t.Fatalf("self-disable: %d", resp.StatusCode)
	}
	if resp, _ := e.post(admin, "/admin/users/999/disable", nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown user: %d", resp.StatusCode)
	}
	if resp, _ := e.post(admin, fmt.Sprintf("/admin/users/%d/disable", bob.ID), nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("disable: %d", resp.StatusCode)
	}
	if resp, _ := e.get(member, "/account"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("disabled member still signed in: %d", resp.StatusCode)
	}
	login := url.Values{"username": {"bob"}, "password": {"not a real password"}}
	if resp, _ := e.post(e.client(), "/login", login); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("disabled login: %d", resp.StatusCode)
	}
	_, doc := e.get(admin, "/admin")
	if doc.Find(fmt.Sprintf("#user-%d .status", bob.ID)).Text() != "disabled" {
		t.Fatal("admin page does not show the account as disabled")
	}
	e.post(admin, fmt.Sprintf("/admin/users/%d/enable", bob.ID), nil)
	if resp, _ := e.post(e.client(), "/login", login); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("re-enabled login: %d", resp.StatusCode)
	}

	path := e.createLink(admin, fmt.Sprintf("/admin/users/%d/reset", bob.ID), nil, e.ts.URL)
	anon := e.client()
	resp, doc := e.get(anon, path)
	if resp.StatusCode != 200 || doc.Find("#reset-name").Text() != "bob" {
		t.Fatalf("reset page: %d", resp.StatusCode)
	}
	resp, doc = e.post(anon, path, url.Values{"password": {"short"}, "password2": {"short"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#password-error").Length() != 1 {
		t.Fatalf("short reset password: %d", resp.StatusCode)
	}
	if resp, _ := e.post(anon, path, url.Values{"password": {"brand-new-pw"}, "password2": {"brand-new-pw"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("reset: %d", resp.StatusCode)
	}
	if resp, _ := e.post(e.client(), "/login", login); resp.StatusCode != http.StatusUnauthorized {
		t.Fatal("old password still works after a reset")
	}
	if resp, _ := e.post(e.client(), "/login", url.Values{"username": {"bob"}, "password": {"brand-new-pw"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatal("new password does not work")
	}
	if resp, _ := e.get(anon, path); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("reset link reused: %d", resp.StatusCode)
	}
}

// writeCard writes a minimal valid card into dir.
func writeDeckFile(t *testing.T, dir, name, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAdminReload(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/deck/kafka/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	writeDeckFile(t, dir, "kafka/sample.md", string(src))
	load := func() (*deckload.Loaded, error) {
		d, err := deck.Load(os.DirFS(dir), deck.Options{})
		return &deckload.Loaded{Deck: d}, err
	}
	l, err := load()
	d := l.Deck
	if err != nil {
		t.Fatal(err)
	}
	holder := deckload.NewHolder(l, dir, load)
	e := newEnv(t, Config{})
	e.srv.decks = holder
	admin := e.signedIn("ada", store.RoleAdmin)

	// A broken card: the reload fails, the running deck stays, every error shows with its line.
	writeDeckFile(t, dir, "kafka/broken.md", "---\nid: broken\n---\nno sections here\n")
	resp, _ := e.post(admin, "/admin/reload", nil)
	if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "reload=failed") {
		t.Fatalf("reload of a broken deck: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if holder.Deck() != d {
		t.Fatal("a broken deck was swapped in")
	}
	_, doc := e.get(admin, "/admin?reload=failed")
	items := doc.Find("#reload-errors .deck-errors li")
	if items.Length() == 0 || !strings.Contains(items.First().Find(".where").Text(), "kafka/broken.md") {
		t.Fatalf("reload errors not listed: %q", doc.Find("#deck").Text())
	}
	if !strings.Contains(doc.Find("main .notice").Text(), "unchanged") {
		t.Fatal("no notice about the failed reload")
	}
	// Fixed: a second card is now served.
	second := strings.Replace(string(src), "id: sample-eager", "id: sample-second", 1)
	writeDeckFile(t, dir, "kafka/broken.md", second)
	resp, _ = e.post(admin, "/admin/reload", nil)
	if !strings.Contains(resp.Header.Get("Location"), "reload=ok") || holder.Deck().Len() != 2 {
		t.Fatalf("reload after the fix: %s, %d cards", resp.Header.Get("Location"), holder.Deck().Len())
	}
	if resp, _ := e.get(admin, "/cards/sample-second"); resp.StatusCode != 200 {
		t.Fatalf("reloaded card not served: %d", resp.StatusCode)
	}
	_, doc = e.get(admin, "/admin")
	if doc.Find("#reload-errors").Length() != 0 {
		t.Fatal("errors still shown after a good reload")
	}

	// An embedded deck says so.
	e.srv.decks = deckload.NewHolder(l, "embedded", nil)
	resp, _ = e.post(admin, "/admin/reload", nil)
	if !strings.Contains(resp.Header.Get("Location"), "reload=embedded") {
		t.Fatalf("embedded reload: %s", resp.Header.Get("Location"))
	}
	_, doc = e.get(admin, "/admin")
	if doc.Find("#deck-reload").Length() != 0 || !strings.Contains(doc.Find("#deck").Text(), "embedded") {
		t.Fatal("embedded deck offered a reload button")
	}
}

func TestReadyzAndMetrics(t *testing.T) {
	e := newEnv(t, Config{})
	admin := e.signedIn("ada", store.RoleAdmin)
	member := e.signedIn("bob", store.RoleMember)
	if resp, _ := e.get(e.client(), "/readyz"); resp.StatusCode != 200 {
		t.Fatalf("readyz: %d", resp.StatusCode)
	}
	resp, err := admin.Get(e.ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`rehearse_http_requests_total{code="303",method="POST",route="/login"}`,
		`rehearse_http_request_duration_seconds_bucket{method="GET",route="/readyz",le="+Inf"}`,
		fmt.Sprintf("rehearse_deck_cards %d", e.srv.deck().Len()), "rehearse_answers_recorded_total", `rehearse_mock_sessions_total{event="started"}`,
		"rehearse_simulation_run_seconds_count"} {
		if !strings.Contains(body.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if resp, _ := e.get(member, "/metrics"); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("member /metrics: %d", resp.StatusCode)
	}
	if resp, _ := e.get(e.client(), "/metrics"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("anonymous /metrics: %d", resp.StatusCode)
	}
	// With a separate listener, the app does not route /metrics at all.
	e2 := newEnv(t, Config{MetricsElsewhere: true})
	a2 := e2.signedIn("ada", store.RoleAdmin)
	if resp, _ := e2.get(a2, "/metrics"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("/metrics with a separate listener: %d", resp.StatusCode)
	}
	// Not ready once the database is gone.
	e.db.Close()
	if resp, _ := e.get(e.client(), "/readyz"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("readyz with a closed db: %d", resp.StatusCode)
	}
}
