package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/team"
)

func TestInvitesSeveralAbsoluteRevocable(t *testing.T) {
	e := newEnv(t, Config{})
	admin := e.client()
	// The setup page records the address it was opened at.
	if resp, _ := e.post(admin, "/setup", url.Values{"username": {"root"}, "password": {"long enough pw"}, "password2": {"long enough pw"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("setup: %d", resp.StatusCode)
	}
	if v, _ := e.db.Setting(context.Background(), store.SettingExternalURL); v != e.ts.URL {
		t.Fatalf("recorded address %q, want %q", v, e.ts.URL)
	}
	resp, doc := e.post(admin, "/admin/invites", url.Values{"role": {"member"}, "days": {"3"}, "for": {"Ada Lovelace\r\n\r\ngrace@example.com\n"}})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create invites: %d", resp.StatusCode)
	}
	links := doc.Find(".created-link")
	if links.Length() != 2 || doc.Find("button.copy").Length() != 2 || !strings.Contains(doc.Find("#links-expire").Text(), "2026-11-05") {
		t.Fatalf("%d links, %d copy buttons, expiry %q", links.Length(), doc.Find("button.copy").Length(), doc.Find("#links-expire").Text())
	}
	var paths []string
	for i := range 2 {
		v, _ := links.Eq(i).Attr("value")
		if !strings.HasPrefix(v, e.ts.URL+"/invite/") {
			t.Fatalf("link %q is not absolute on the recorded address", v)
		}
		paths = append(paths, strings.TrimPrefix(v, e.ts.URL))
	}
	if got := doc.Find("label.stack-label").Eq(1).Text(); strings.TrimSpace(got) != "grace@example.com" {
		t.Fatalf("second link labelled %q", got)
	}
	// Listed with whom they are for; the first is revoked and stops working.
	_, doc = e.get(admin, "/admin")
	row := doc.Find("#invites tbody tr").FilterFunction(func(_ int, s *goquery.Selection) bool { return s.Find("td").First().Text() == "Ada Lovelace" })
	action, ok := row.Find("form").Attr("action")
	if !ok {
		t.Fatal("no revoke button on a pending invite")
	}
	if resp, _ := e.post(admin, action, nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	if resp, _ := e.get(e.client(), paths[0]); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("revoked invite: %d", resp.StatusCode)
	}
	if resp, _ := e.get(e.client(), paths[1]); resp.StatusCode != http.StatusOK {
		t.Fatalf("the other invite: %d", resp.StatusCode)
	}
	if resp, _ := e.post(admin, action, nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("revoking twice: %d", resp.StatusCode)
	}
	_, doc = e.get(admin, "/admin")
	if st := doc.Find("#invites td.status").FilterFunction(func(_ int, s *goquery.Selection) bool { return s.Text() == "revoked" }).Length(); st != 1 {
		t.Fatalf("%d invites shown revoked", st)
	}
	// Too many at once: nothing is created, the form says why.
	many := strings.Repeat("someone\n", team.MaxInvitesAtOnce+1)
	if resp, doc := e.post(admin, "/admin/invites", url.Values{"role": {"member"}, "days": {"3"}, "for": {many}}); resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#for-error").Length() != 1 {
		t.Fatalf("%d invites at once: %d", team.MaxInvitesAtOnce+1, resp.StatusCode)
	}
	// The admin changes the address; later links use it.
	if resp, doc := e.post(admin, "/admin/external-url", url.Values{"url": {"javascript:alert(1)"}}); resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#url-error").Length() != 1 {
		t.Fatalf("a bad address: %d", resp.StatusCode)
	}
	if resp, _ := e.post(admin, "/admin/external-url", url.Values{"url": {"https://team.example.com/rehearse/"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save the address: %d", resp.StatusCode)
	}
	_, doc = e.post(admin, "/admin/invites", url.Values{"role": {"admin"}, "days": {"1"}})
	if v, _ := doc.Find(".created-link").Attr("value"); !strings.HasPrefix(v, "https://team.example.com/rehearse/invite/") {
		t.Fatalf("link after changing the address: %q", v)
	}
	if n := countRows(t, e.db, fmt.Sprintf("SELECT count(*) FROM invites WHERE role = '%s'", store.RoleMember)); n != 2 {
		t.Fatalf("%d member invites stored, want the 2 made", n)
	}
}
