package store

import (
	"context"
	"testing"
	"time"
)

// The session look-up carries the user's theme, and a theme saved through the store shows on
// the next look-up although the previous one is still fresh.
func TestSessionUserCarriesTheTheme(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "lee", "h", RoleMember, t0)
	digest := []byte("0123456789abcdef0123456789abcdef")
	if err := db.CreateSession(ctx, digest, u.ID, t0, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, err := db.SessionUser(ctx, digest, t0); err != nil || got.Theme != ThemeSystem {
		t.Fatalf("no theme chosen: %+v %v, want %q", got, err, ThemeSystem)
	}
	for i, theme := range []string{ThemeDark, ThemeLight, ThemeSystem} {
		if err := db.SetTheme(ctx, u.ID, theme); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.SessionUser(ctx, digest, t0.Add(time.Duration(i+1)*time.Millisecond)); got.Theme != theme {
			t.Fatalf("after choosing %s the session look-up says %q", theme, got.Theme)
		}
	}
}

// A setting saved through the store shows at once; one written behind its back (another
// process) shows within the cache's second.
func TestSettingReuseNeverHidesAStoreChange(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	get := func() string {
		v, err := db.Setting(ctx, SettingMembersEdit)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := get(); v != "" {
		t.Fatalf("unset setting: %q", v)
	}
	if err := db.SetSetting(ctx, SettingMembersEdit, "1"); err != nil {
		t.Fatal(err)
	}
	if v := get(); v != "1" {
		t.Fatalf("after SetSetting the setting reads %q", v)
	}
	if _, err := db.w.ExecContext(ctx, "UPDATE instance_settings SET value = '0' WHERE key = ?", SettingMembersEdit); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * sessionTTL)
	for get() != "0" {
		if time.Now().After(deadline) {
			t.Fatal("another process's change never showed")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
