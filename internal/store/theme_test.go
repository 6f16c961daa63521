package store

import (
	"context"
	"testing"
)

func TestTheme(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, err := db.CreateUser(ctx, "ada", "h", RoleMember, t0)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := db.CreateUser(ctx, "bob", "h", RoleMember, t0)
	if th, err := db.Theme(ctx, u.ID); err != nil || th != ThemeSystem {
		t.Fatalf("fresh theme = %q, %v; want system", th, err)
	}
	for _, want := range []string{ThemeDark, ThemeLight, ThemeSystem, ThemeDark} {
		if err := db.SetTheme(ctx, u.ID, want); err != nil {
			t.Fatal(err)
		}
		if th, err := db.Theme(ctx, u.ID); err != nil || th != want {
			t.Fatalf("theme after setting %s = %q, %v", want, th, err)
		}
	}
	if th, _ := db.Theme(ctx, other.ID); th != ThemeSystem {
		t.Fatalf("another user's theme = %q: choices must be per user", th)
	}
	if err := db.SetTheme(ctx, u.ID, "sepia"); err == nil {
		t.Fatal("SetTheme accepted sepia")
	}
	if th, _ := db.Theme(ctx, u.ID); th != ThemeDark {
		t.Fatalf("a refused theme changed the stored one to %q", th)
	}
}
