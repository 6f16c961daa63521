package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestInviteSingleUseAndExpiring(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	admin, err := db.CreateUser(ctx, "ada", "h", RoleAdmin, t0)
	if err != nil {
		t.Fatal(err)
	}
	tok := []byte("digest-1")
	if err := db.CreateInvite(ctx, tok, RoleMember, admin.ID, t0, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateInvite(ctx, []byte("x"), "owner", admin.ID, t0, t0.Add(time.Hour)); err == nil {
		t.Fatal("unknown role accepted")
	}
	inv, err := db.InviteByDigest(ctx, tok, t0)
	if err != nil || inv.Role != RoleMember {
		t.Fatalf("invite = %+v, %v", inv, err)
	}
	// A taken name leaves the invite usable.
	if _, err := db.RedeemInvite(ctx, tok, "ADA", "h2", t0); !errors.Is(err, ErrConflict) {
		t.Fatalf("taken name: %v, want ErrConflict", err)
	}
	u, err := db.RedeemInvite(ctx, tok, "grace", "h2", t0.Add(time.Minute))
	if err != nil || u.Role != RoleMember || u.Username != "grace" {
		t.Fatalf("redeem: %+v, %v", u, err)
	}
	if _, err := db.RedeemInvite(ctx, tok, "eve", "h3", t0.Add(2*time.Minute)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second use: %v, want ErrNotFound", err)
	}
	if _, err := db.InviteByDigest(ctx, tok, t0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("used invite still found: %v", err)
	}
	// Expiry.
	old := []byte("digest-2")
	if err := db.CreateInvite(ctx, old, RoleAdmin, admin.ID, t0, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RedeemInvite(ctx, old, "late", "h", t0.Add(time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired invite: %v, want ErrNotFound", err)
	}
	list, err := db.Invites(ctx, t0.Add(-time.Hour))
	if err != nil || len(list) != 2 {
		t.Fatalf("invites = %+v, %v", list, err)
	}
	used := list[1]
	if list[0].Role == RoleMember {
		used = list[0]
	}
	if used.UsedBy != "grace" || used.CreatedBy != "ada" || used.Pending(t0) {
		t.Fatalf("used invite listed as %+v", used)
	}
}

func TestPasswordReset(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, err := db.CreateUser(ctx, "ada", "old", RoleMember, t0)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.CreateSession(ctx, []byte("s"), u.ID, t0, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	first, second := []byte("r1"), []byte("r2")
	for _, d := range [][]byte{first, second} {
		if err := db.CreateReset(ctx, d, u.ID, t0, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.CreateReset(ctx, []byte("r3"), 999, t0, t0.Add(time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("reset for unknown user: %v", err)
	}
	if _, err := db.ResetUser(ctx, first, t0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("superseded link still valid: %v", err)
	}
	if got, err := db.ResetUser(ctx, second, t0); err != nil || got.ID != u.ID {
		t.Fatalf("reset user = %+v, %v", got, err)
	}
	if _, err := db.RedeemReset(ctx, second, "new", t0.Add(time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired link redeemed: %v", err)
	}
	if _, err := db.RedeemReset(ctx, second, "new", t0); err != nil {
		t.Fatal(err)
	}
	got, _ := db.UserByID(ctx, u.ID)
	if got.PasswordHash != "new" {
		t.Fatalf("password hash = %q", got.PasswordHash)
	}
	if _, err := db.SessionUser(ctx, []byte("s"), t0); !errors.Is(err, ErrNotFound) {
		t.Fatal("reset kept the old sessions")
	}
	if _, err := db.RedeemReset(ctx, second, "again", t0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("link used twice: %v", err)
	}
}
