package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The database, its -wal and -shm files and a backup are the owner's alone; an existing
// database made world-readable by an older version is narrowed on open.
func TestDataFilesAreOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "rehearse.db")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil { // as an older version left it
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CreateUser(ctx, "ada", "x", RoleAdmin, t0); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "backup.db")
	if err := db.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", backup} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want -rw-------", filepath.Base(p), st.Mode().Perm())
		}
	}
}

// A deleted row leaves no copy of its text in the file (secure_delete): the audit found 2,984
// copies of a deleted recording's marker after a checkpoint and a clean stop.
func TestDeletedRowsLeaveNoTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rehearse.db")
	ctx := context.Background()
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := db.CreateUser(ctx, "ada", "x", RoleAdmin, t0)
	if err != nil {
		t.Fatal(err)
	}
	marker := "MARKER-" + strings.Repeat("q7", 40)
	for i := range 200 {
		if _, err := db.CreateToken(ctx, u.ID, marker, []byte{byte(i), byte(i >> 8), 1}, t0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.w.ExecContext(ctx, "DELETE FROM api_tokens"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(b, []byte(marker)); n > 0 {
			t.Errorf("%s holds %d copies of deleted rows' text", filepath.Base(p), n)
		}
	}
}

// A binary refuses a database migrated by a newer one, naming both versions, and changes
// nothing in it.
func TestNewerDatabaseRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rehearse.db")
	ctx := context.Background()
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.w.ExecContext(ctx, "INSERT INTO goose_db_version (version_id, is_applied) VALUES (999, 1)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(ctx, path, nil)
	if err == nil || !strings.Contains(err.Error(), "schema version 999") || !strings.Contains(err.Error(), "up to ") {
		t.Fatalf("opening a newer database: %v", err)
	}
}

// Short links nobody opens expire; one opened lately stays.
func TestUnusedShortLinksExpire(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	for _, id := range []string{"aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"} {
		if err := db.SaveSimShare(ctx, id, "kind=consumer", t0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SimShare(ctx, "bbbbbbbbbbbbbbbb", t0.Add(60*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	n, err := db.PurgeUnusedSimShares(ctx, t0.Add(100*24*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("purged %d: %v", n, err)
	}
	if _, err := db.SimShare(ctx, "aaaaaaaaaaaaaaaa", t0.Add(100*24*time.Hour)); err != ErrNotFound {
		t.Errorf("the never-opened link: %v", err)
	}
	if _, err := db.SimShare(ctx, "bbbbbbbbbbbbbbbb", t0.Add(100*24*time.Hour)); err != nil {
		t.Errorf("the link opened on day 60: %v", err)
	}
}
