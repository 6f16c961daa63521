package account

import (
	"context"
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
)

// A wrong password, an unknown name and a disabled account all answer ErrMismatch, each counted;
// past the limit the address waits, and a reset through a link lets it in again at once.
func TestPasswordsLoginCountsAndReset(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	p := Passwords{Hasher: auth.NewHasher(auth.Cheap, 2, time.Second), Limiter: auth.NewLoginLimiter()}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	addr := netip.MustParseAddr("192.0.2.7")
	ada, err := p.FirstAdmin(ctx, db, "ada", "a long password", now)
	if err != nil {
		t.Fatal(err)
	}
	if u, wait, err := p.Login(ctx, db, "ada", "a long password", addr, now); err != nil || wait != 0 || u.ID != ada.ID {
		t.Fatalf("right password: %v %v %v", u, wait, err)
	}
	if _, _, err := p.Login(ctx, db, "nobody", "a long password", addr, now); !errors.Is(err, auth.ErrMismatch) {
		t.Fatalf("unknown name: %v, want ErrMismatch", err)
	}
	for i := range auth.LoginFailsPerPair {
		if _, wait, err := p.Login(ctx, db, "ada", "wrong password", addr, now); !errors.Is(err, auth.ErrMismatch) || wait != 0 {
			t.Fatalf("wrong password %d: wait %v err %v", i+1, wait, err)
		}
	}
	if _, wait, _ := p.Login(ctx, db, "ada", "a long password", addr, now); wait <= 0 {
		t.Fatal("no wait after too many failures")
	}
	if wait, _ := p.Confirm(ctx, ada, "a long password", addr, now); wait <= 0 {
		t.Fatal("confirming the password is not counted like a login")
	}
	_, digest := auth.NewToken()
	if err := db.CreateReset(ctx, digest, ada.ID, now, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reset(ctx, db, digest, "another long one", now); err != nil {
		t.Fatal(err)
	}
	if u, wait, err := p.Login(ctx, db, "ada", "another long one", addr, now); err != nil || wait != 0 || u.ID != ada.ID {
		t.Fatalf("after the reset: %v %v %v", u, wait, err)
	}
	if err := db.SetDisabled(ctx, ada.ID, true, now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Login(ctx, db, "ada", "another long one", addr, now); !errors.Is(err, auth.ErrMismatch) {
		t.Fatalf("disabled account: %v, want ErrMismatch", err)
	}
}

func TestNewAccountFields(t *testing.T) {
	t.Parallel()
	if f := NewAccountFields("ada", "a long password", "a long password"); len(f) != 0 {
		t.Errorf("good fields refused: %v", f)
	}
	if f := NewAccountFields("a b", "short", "short"); f["username"] == "" || f["password"] == "" {
		t.Errorf("bad name and short password: %v", f)
	}
	if f := NewAccountFields("ada", "a long password", "a long passwort"); f["password2"] == "" || len(f) != 1 {
		t.Errorf("differing passwords: %v", f)
	}
}
