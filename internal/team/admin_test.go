package team

import (
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/store"
)

func TestParseInvites(t *testing.T) {
	t.Parallel()
	if _, msg, _ := ParseInvites("owner", "", ""); msg == "" {
		t.Error("an unknown role was accepted")
	}
	req, msg, _ := ParseInvites(store.RoleMember, "", "")
	if msg != "" || req.Days != DefaultInviteDays || len(req.People) != 1 || req.People[0] != "" {
		t.Errorf("empty form: %+v %q, want one invite for nobody for %d days", req, msg, DefaultInviteDays)
	}
	req, msg, _ = ParseInvites(store.RoleAdmin, " 3 ", "ada\n\n  bob@example.com \n")
	if msg != "" || req.Days != 3 || strings.Join(req.People, "|") != "ada|bob@example.com" {
		t.Errorf("two lines: %+v %q", req, msg)
	}
	for _, c := range []struct{ days, people, field string }{
		{"0", "", "days"}, {"31", "", "days"}, {"x", "", "days"},
		{"", strings.Repeat("a", 201), "for"},
		{"", strings.Repeat("someone\n", MaxInvitesAtOnce+1), "for"},
	} {
		if _, msg, fields := ParseInvites(store.RoleMember, c.days, c.people); msg == "" || fields[c.field] == "" {
			t.Errorf("days %q, %d bytes of people: no message for %s (%q, %v)", c.days, len(c.people), c.field, msg, fields)
		}
	}
}

func TestInviteStatus(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	live := store.Invite{ExpiresAt: now.Add(time.Hour)}
	for want, i := range map[string]store.Invite{
		"pending":     live,
		"expired":     {ExpiresAt: now},
		"revoked":     {ExpiresAt: now.Add(time.Hour), RevokedAt: now},
		"used by ada": {ExpiresAt: now.Add(time.Hour), UsedAt: now, UsedBy: "ada"},
	} {
		if got := inviteStatus(i, now); got != want {
			t.Errorf("%+v: %q, want %q", i, got, want)
		}
	}
}

func TestCheckEmailAndExternalURL(t *testing.T) {
	t.Parallel()
	for e, ok := range map[string]bool{"": true, "ada@example.com": true, "ada": false, "@example.com": false, "ada@": false, "a b@example.com": false} {
		if got := CheckEmail(e) == ""; got != ok {
			t.Errorf("CheckEmail(%q) accepted=%v, want %v", e, got, ok)
		}
	}
	for in, want := range map[string]string{
		" https://rehearse.example.com/ ": "https://rehearse.example.com",
		"http://host:8080/team/":          "http://host:8080/team",
		"ftp://host":                      "",
		"https://user@host":               "",
		"https://host/?q=1":               "",
		"host":                            "",
	} {
		got, msg := CheckExternalURL(in)
		if got != want || (want == "") != (msg != "") {
			t.Errorf("CheckExternalURL(%q) = %q, %q; want %q", in, got, msg, want)
		}
	}
}
