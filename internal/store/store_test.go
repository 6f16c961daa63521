package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// openTest opens a fresh, migrated database in a temp dir: a copy of one migrated from scratch
// once per test process (storetest does the same for other packages, which this one cannot
// import). The hardening and upgrade tests open fresh and old files, migrating them here.
func openTest(t testing.TB) *DB {
	t.Helper()
	template.once.Do(func() {
		dir, err := os.MkdirTemp("", "store-template")
		if err != nil {
			template.err = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "template.db")
		db, err := Open(context.Background(), path, nil)
		if err == nil {
			err = db.Close() // checkpoints the WAL into the file and removes it
		}
		if err == nil {
			template.file, err = os.ReadFile(path)
		}
		template.err = err
	})
	if template.err != nil {
		t.Fatal(template.err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, template.file, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var template struct {
	once sync.Once
	file []byte
	err  error
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func TestPragmas(t *testing.T) {
	db := openTest(t)
	var mode string
	if err := db.r.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	var fk int
	if err := db.w.QueryRow("PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign_keys = %d, %v", fk, err)
	}
	if _, err := db.r.Exec("DELETE FROM users"); err == nil {
		t.Fatal("reader pool accepted a write")
	}
}

func TestFirstAdminOnlyOnce(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, err := db.CreateFirstAdmin(ctx, "ada", "h", t0)
	if err != nil {
		t.Fatal(err)
	}
	if u.Role != RoleAdmin || u.ID == 0 || !u.CreatedAt.Equal(t0) || u.Settings.NewPerDay != 10 {
		t.Fatalf("unexpected admin %+v", u)
	}
	if _, err := db.CreateFirstAdmin(ctx, "eve", "h", t0); !errors.Is(err, ErrConflict) {
		t.Fatalf("second setup: got %v, want ErrConflict", err)
	}
	if _, err := db.CreateUser(ctx, "ADA", "h", RoleMember, t0); !errors.Is(err, ErrConflict) {
		t.Fatalf("duplicate name (case-insensitive): got %v", err)
	}
	n, _ := db.CountUsers(ctx)
	if n != 1 {
		t.Fatalf("users = %d", n)
	}
}

func TestSessions(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "bob", "h", RoleMember, t0)
	digest := []byte("0123456789abcdef0123456789abcdef")
	if err := db.CreateSession(ctx, digest, u.ID, t0, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := db.SessionUser(ctx, digest, t0.Add(time.Minute))
	if err != nil || got.Username != "bob" {
		t.Fatalf("session lookup: %v %v", got, err)
	}
	if _, err := db.SessionUser(ctx, digest, t0.Add(2*time.Hour)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("expired session: %v", err)
	}
	if err := db.SetDisabled(ctx, u.ID, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionUser(ctx, digest, t0.Add(time.Minute)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("disabled user's session still valid: %v", err)
	}
}

func TestBackup(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	db.CreateUser(ctx, "carol", "h", RoleMember, t0)
	dst := filepath.Join(t.TempDir(), "copy.db")
	if err := db.Backup(ctx, dst); err != nil {
		t.Fatal(err)
	}
	if err := db.Backup(ctx, dst); err == nil {
		t.Fatal("backup overwrote an existing file")
	}
	cp, err := Open(ctx, dst, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if u, err := cp.UserByName(ctx, "carol"); err != nil || u.Username != "carol" {
		t.Fatalf("restored copy: %v %v", u, err)
	}
}
