package sso

import "testing"

func TestDecide(t *testing.T) {
	for _, c := range []struct {
		mode                              Accounts
		linked, holder, verified, noUsers bool
		want                              Action
	}{
		{Create, true, true, true, false, UseLinked},
		{Link, false, true, true, false, LinkByEmail},
		{Create, false, true, true, false, LinkByEmail},
		{Link, false, true, false, false, Refuse},      // an unverified email never links
		{Create, false, true, false, false, CreateNew}, // ... and makes an account of its own
		{Link, false, false, true, false, Refuse},
		{Create, false, false, false, false, CreateNew},
		{Link, false, false, false, true, CreateNew}, // the very first sign-in sets up
	} {
		if got := Decide(c.mode, c.linked, c.holder, c.verified, c.noUsers); got != c.want {
			t.Errorf("Decide(%+v) = %v, want %v", c, got, c.want)
		}
	}
}

func TestRole(t *testing.T) {
	in := Identity{Groups: []string{"devs", "admins"}}
	out := Identity{Groups: []string{"devs"}}
	for _, c := range []struct {
		id         Identity
		group, cur string
		first      bool
		want       string
	}{
		{in, "admins", "member", false, "admin"},
		{out, "admins", "admin", false, "member"},
		{out, "", "admin", false, "admin"},
		{out, "", "", false, "member"},
		{out, "admins", "", true, "admin"},
	} {
		if got := Role(c.id, c.group, c.cur, c.first); got != c.want {
			t.Errorf("Role(%+v) = %s, want %s", c, got, c.want)
		}
	}
}

func TestUsername(t *testing.T) {
	for _, c := range []struct {
		id   Identity
		want string
	}{
		{Identity{PreferredUsername: "ada.lovelace"}, "ada.lovelace"},
		{Identity{PreferredUsername: "ada@corp.example"}, "ada"},
		{Identity{Email: "grace.hopper@navy.example"}, "grace.hopper"},
		{Identity{Name: "Grace Hopper"}, "Grace-Hopper"},
		{Identity{Name: "<>"}, "user"},
	} {
		if got := Username(c.id); got != c.want {
			t.Errorf("Username(%+v) = %q, want %q", c.id, got, c.want)
		}
	}
}
