package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Within the cache's second every change made through the store shows at once, a session
// still ends at its expiry, and a change made behind the store's back (another process) shows
// once the second is over.
func TestSessionCacheNeverServesAStaleAnswer(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "kim", "h", RoleMember, t0)
	digest := []byte("abcdef0123456789abcdef0123456789")
	if err := db.CreateSession(ctx, digest, u.ID, t0, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	lookup := func(at time.Duration) (*User, error) { return db.SessionUser(ctx, digest, t0.Add(at)) }
	if got, err := lookup(0); err != nil || got.Settings.NewPerDay != 10 {
		t.Fatalf("first look-up: %+v %v", got, err)
	}

	// A copy is returned: changing it does not change the cache.
	got, _ := lookup(time.Millisecond)
	got.Username = "changed"
	if again, _ := lookup(2 * time.Millisecond); again.Username != "kim" {
		t.Fatalf("the cache handed out its own copy: %q", again.Username)
	}

	s := got.Settings
	s.NewPerDay = 3
	if err := db.UpdateSettings(ctx, u.ID, s); err != nil {
		t.Fatal(err)
	}
	if got, _ := lookup(3 * time.Millisecond); got.Settings.NewPerDay != 3 {
		t.Fatalf("settings changed through the store, look-up still says %d", got.Settings.NewPerDay)
	}

	// Another process's write is not seen while the entry is fresh, and is seen after.
	if _, err := db.w.ExecContext(ctx, "UPDATE users SET new_per_day = 7 WHERE id = ?", u.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := lookup(500 * time.Millisecond); got.Settings.NewPerDay != 3 {
		t.Fatalf("entry not reused within its second: %d", got.Settings.NewPerDay)
	}
	if got, _ := lookup(1100 * time.Millisecond); got.Settings.NewPerDay != 7 {
		t.Fatalf("another process's change not seen after a second: %d", got.Settings.NewPerDay)
	}

	if err := db.DeleteSession(ctx, digest); err != nil {
		t.Fatal(err)
	}
	if _, err := lookup(1101 * time.Millisecond); !errors.Is(err, ErrNotFound) {
		t.Fatalf("logged-out session still valid from the cache: %v", err)
	}
}

func TestSessionCacheKeepsExpiry(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "lee", "h", RoleMember, t0)
	digest := []byte("fedcba9876543210fedcba9876543210")
	if err := db.CreateSession(ctx, digest, u.ID, t0, t0.Add(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionUser(ctx, digest, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionUser(ctx, digest, t0.Add(400*time.Millisecond)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("session past its expiry served from the cache: %v", err)
	}
}

// A look-up that read the database before a change but stores its answer after the change
// must not leave the old answer cached.
func TestSessionCacheDropsARacingLookup(t *testing.T) {
	var c sessionCache
	d := []byte("k")
	_, gen := c.get(d, t0)
	c.clear() // a change lands while the look-up is in the database
	c.put(d, &User{Username: "old"}, t0, t0.Add(time.Hour), gen)
	if u, _ := c.get(d, t0); u != nil {
		t.Fatalf("a look-up that raced a change was cached: %+v", u)
	}
}
