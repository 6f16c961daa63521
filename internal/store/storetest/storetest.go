// Package storetest gives tests a real, migrated SQLite database without running every
// migration for each test: the schema is migrated once per test process into a template, and
// each test gets its own copy of that file, opened with store.Open (which finds nothing to
// apply). The store's own tests migrate from scratch.
package storetest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rehearse/rehearse/internal/store"
)

var template struct {
	once sync.Once
	file []byte
	err  error
}

// migrated returns the bytes of a database file migrated from scratch, once per process.
func migrated() ([]byte, error) {
	template.once.Do(func() {
		dir, err := os.MkdirTemp("", "storetest")
		if err != nil {
			template.err = err
			return
		}
		defer os.RemoveAll(dir)
		path := filepath.Join(dir, "template.db")
		db, err := store.Open(context.Background(), path, nil)
		if err == nil {
			err = db.Close() // checkpoints the WAL into the file and removes it
		}
		if err == nil {
			template.file, err = os.ReadFile(path)
		}
		template.err = err
	})
	return template.file, template.err
}

// File writes a fresh, fully migrated database file at path, for code under test that opens
// the database itself.
func File(t testing.TB, path string) {
	t.Helper()
	b, err := migrated()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// Open opens a fresh, migrated database of the test's own in a temp dir, closed when the test
// ends.
func Open(t testing.TB) *store.DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rehearse.db")
	File(t, path)
	db, err := store.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
