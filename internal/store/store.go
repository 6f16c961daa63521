// Package store keeps Rehearse's state in SQLite: accounts, sessions, study progress and mock
// sessions. Exported methods own their transactions; times are passed in, never read here.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/migrations"
)

// Errors callers can test for with errors.Is.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("already exists")
)

// DB is one SQLite file opened twice: a single writer connection, so writes queue in Go rather
// than fight over the file lock, and a pool of readers that WAL lets run beside it.
type DB struct {
	w, r *sql.DB
	path string

	rstmts stmtCache // prepared.go: the reader pool's statements
}

func dsn(path string, write bool) string {
	q := url.Values{}
	// busy_timeout first, so the pragmas after it wait for a lock instead of failing.
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "foreign_keys(ON)")
	// Deleted rows (recordings, sessions, tokens) are overwritten with zeros rather than left
	// in free pages, where a copy of the file or a volume snapshot would still hold them.
	q.Add("_pragma", "secure_delete(ON)")
	// A page cache of at most 1 MiB per connection (SQLite's default is 2 MiB), so the pool's
	// caches stay under 1 MiB x (1 + readers) as the database grows: the hot pages of these
	// short queries fit, and the rest is in the OS page cache anyway.
	q.Add("_pragma", "cache_size(-1024)")
	if write {
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(ON)")
	}
	return "file:" + path + "?" + q.Encode()
}

// Open opens (creating if needed) the database at path and applies pending migrations.
func Open(ctx context.Context, path string, log *slog.Logger) (*DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
	}
	if err := ownerOnly(path); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	db := &DB{w: w, path: path}
	if err := db.Migrate(ctx, log); err != nil {
		w.Close()
		return nil, err
	}
	r, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(readers())
	r.SetMaxIdleConns(readers())
	db.r = r
	return db, nil
}

// ownerOnly creates the database file readable and writable by its owner only, or narrows an
// existing one (and its -wal and -shm files) to that: it holds password hashes, sessions and
// recordings. SQLite creates the -wal and -shm files with the database file's permissions.
func ownerOnly(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if st, err := os.Stat(p); err == nil && st.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(p, st.Mode().Perm()&0o700); err != nil {
				return fmt.Errorf("make %s private: %w", p, err)
			}
		}
	}
	return nil
}

// readers is the read pool's size: two connections per core (a query runs on a core, the other
// is being handed to the next request), between 2 and 8. Each connection holds its own page
// cache and prepared statements, so more than the cores can use is memory for nothing.
func readers() int { return min(max(2*runtime.GOMAXPROCS(0), 2), 8) }

// Migrate applies every pending migration in migrations/.
func (db *DB) Migrate(ctx context.Context, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// Out of order allowed: migrations are independent, and a lower number can land after a
	// higher one was applied (005 after 008), which goose otherwise refuses.
	p, err := goose.NewProvider(goose.DialectSQLite3, db.w, migrations.FS, goose.WithAllowOutofOrder(true))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	// A database migrated by a newer binary has tables and columns this one does not know:
	// serving it would hide what the newer version stored, so refuse and name both versions.
	cur, target, err := p.GetVersions(ctx)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if cur > target {
		return fmt.Errorf("the database %s is at schema version %d, but this rehearse knows versions up to %d: it was written by a newer rehearse. Run that version (or restore a backup taken before the upgrade); nothing was changed", db.path, cur, target)
	}
	res, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, m := range res {
		log.Info("migration applied", "version", m.Source.Version, "file", m.Source.Path, "took", m.Duration)
	}
	return nil
}

// Close closes both pools.
func (db *DB) Close() error {
	db.rstmts.close()
	var err error
	if db.r != nil {
		err = db.r.Close()
	}
	return errors.Join(err, db.w.Close())
}

// Path is the database file.
func (db *DB) Path() string { return db.path }

// Ping checks that the database answers a query (for /readyz).
func (db *DB) Ping(ctx context.Context) error {
	var one int
	return db.r.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// Tx runs fn in a write transaction, committing if it returns nil.
func (db *DB) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Backup writes a consistent copy of the live database to dst (which must not exist), using
// SQLite's VACUUM INTO so readers and the writer carry on meanwhile.
func (db *DB) Backup(ctx context.Context, dst string) error {
	// Created empty first, readable by the owner only (VACUUM INTO accepts an empty file).
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("backup: %s already exists", dst)
	}
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	f.Close()
	_, err = db.w.ExecContext(ctx, "VACUUM INTO ?", dst)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

// ms and fromMS are how every time is stored: srs.States packs card states in the same form.
func ms(t time.Time) int64 { return srs.UnixMS(t) }

func fromMS(v int64) time.Time { return srs.FromUnixMS(v) }
