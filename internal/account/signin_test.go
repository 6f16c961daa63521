package account

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
)

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db := storetest.Open(t)
	return db
}

// The first outside identity sets the instance up as its admin; the next is a member, linked
// once and found by its link after that; with account creation off, a stranger is refused.
func TestSignInFirstIsAdminThenMembers(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	first, created, err := SignIn(ctx, db, sso.Identity{Issuer: "idp", Subject: "1", PreferredUsername: "ada"}, sso.Link, "", now)
	if err != nil || !created || first.Role != store.RoleAdmin {
		t.Fatalf("first sign-in: %+v created=%v err=%v, want a new admin", first, created, err)
	}
	if _, _, err := SignIn(ctx, db, sso.Identity{Issuer: "idp", Subject: "2", PreferredUsername: "bob"}, sso.Link, "", now); !errors.Is(err, ErrNoAccount) {
		t.Fatalf("stranger with creation off: %v, want ErrNoAccount", err)
	}
	bob, created, err := SignIn(ctx, db, sso.Identity{Issuer: "idp", Subject: "2", PreferredUsername: "bob"}, sso.Create, "", now)
	if err != nil || !created || bob.Role != store.RoleMember {
		t.Fatalf("bob: %+v created=%v err=%v, want a new member", bob, created, err)
	}
	again, created, err := SignIn(ctx, db, sso.Identity{Issuer: "idp", Subject: "2"}, sso.Link, "", now)
	if err != nil || created || again.ID != bob.ID {
		t.Fatalf("bob again: %+v created=%v err=%v, want his account", again, created, err)
	}
	if err := db.SetDisabled(ctx, bob.ID, true, now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := SignIn(ctx, db, sso.Identity{Issuer: "idp", Subject: "2"}, sso.Link, "", now); !errors.Is(err, ErrDisabled) {
		t.Fatalf("disabled account: %v, want ErrDisabled", err)
	}
}

// A proxy's user signs in to the account of the same name, unless another account holds the
// email the proxy passes.
func TestSignInProxiedByName(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ada, err := db.CreateFirstAdmin(ctx, "ada", "", now)
	if err != nil {
		t.Fatal(err)
	}
	u, created, err := SignInProxied(ctx, db, sso.Identity{Issuer: ProxyIssuer, Subject: "ada", PreferredUsername: "ada"}, now)
	if err != nil || created || u.ID != ada.ID {
		t.Fatalf("proxied ada: %+v created=%v err=%v, want the existing ada", u, created, err)
	}
	bob, err := db.CreateUser(ctx, "bob", "", store.RoleMember, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SetEmail(ctx, bob.ID, "bob@example.com"); err != nil {
		t.Fatal(err)
	}
	// "carol" at the proxy carries bob's address: linked to bob by the verified email.
	u, _, err = SignInProxied(ctx, db, sso.Identity{Issuer: ProxyIssuer, Subject: "carol", Email: "bob@example.com", EmailVerified: true}, now)
	if err != nil || u.ID != bob.ID {
		t.Fatalf("proxied carol with bob's email: %+v err=%v, want bob", u, err)
	}
}
