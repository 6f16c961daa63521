package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/store"
)

func TestAccountPassword(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("bob", store.RoleMember)
	other := e.client()
	e.post(other, "/login", url.Values{"username": {"bob"}, "password": {"not a real password"}})

	resp, doc := e.post(c, "/account/password", url.Values{"current": {"wrong"}, "password": {"new-password-1"}, "password2": {"new-password-1"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#current-error").Length() != 1 {
		t.Fatalf("wrong current password: %d", resp.StatusCode)
	}
	resp, doc = e.post(c, "/account/password", url.Values{"current": {"not a real password"}, "password": {"new-password-1"}, "password2": {"new-password-2"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#password2-error").Length() != 1 {
		t.Fatalf("mismatched new passwords: %d", resp.StatusCode)
	}
	resp, _ = e.post(c, "/account/password", url.Values{"current": {"not a real password"}, "password": {"new-password-1"}, "password2": {"new-password-1"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("change password: %d", resp.StatusCode)
	}
	// This browser stays signed in; the other session is over.
	if _, doc := e.get(c, "/account?saved=password"); doc.Find("#account-name").Text() != "bob" || doc.Find("main .notice").Length() != 1 {
		t.Fatal("changing the password signed this browser out or showed no notice")
	}
	if resp, _ := e.get(other, "/account"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("other session survived a password change: %d", resp.StatusCode)
	}
	if resp, _ := e.post(e.client(), "/login", url.Values{"username": {"bob"}, "password": {"new-password-1"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatal("new password does not log in")
	}
}

func TestAccountSignOutEverywhere(t *testing.T) {
	e := newEnv(t, Config{})
	a := e.signedIn("bob", store.RoleMember)
	b := e.client()
	e.post(b, "/login", url.Values{"username": {"bob"}, "password": {"not a real password"}})
	resp, _ := e.post(a, "/account/sessions", nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login" {
		t.Fatalf("sign out everywhere: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, c := range []*http.Client{a, b} {
		if resp, _ := e.get(c, "/account"); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("a session survived: %d", resp.StatusCode)
		}
	}
}

func TestAccountShareWithTeamKeepsSettings(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("bob", store.RoleMember)
	ctx := context.Background()
	u, _ := e.db.UserByName(ctx, "bob")
	st := u.Settings
	st.NewPerDay, st.TimeZone = 25, "Europe/Paris"
	if err := e.db.UpdateSettings(ctx, u.ID, st); err != nil {
		t.Fatal(err)
	}
	if _, doc := e.get(c, "/account"); doc.Find("#share[checked]").Length() != 0 || !strings.Contains(doc.Find("#share-state").Text(), "Private") {
		t.Fatal("a new account is not private by default")
	}
	if resp, _ := e.post(c, "/account/team", url.Values{"share": {"on"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("share: %d", resp.StatusCode)
	}
	u, _ = e.db.UserByName(ctx, "bob")
	if yes, _ := e.db.Shares(ctx, u.ID); !yes || u.Settings.NewPerDay != 25 || u.Settings.TimeZone != "Europe/Paris" {
		t.Fatalf("after sharing: shares=%v settings %+v", yes, u.Settings)
	}
	if _, doc := e.get(c, "/account"); doc.Find("#share[checked]").Length() != 1 {
		t.Fatal("checkbox does not show the saved choice")
	}
	e.post(c, "/account/team", url.Values{})
	if yes, _ := e.db.Shares(ctx, u.ID); yes {
		t.Fatal("could not stop sharing")
	}
}
