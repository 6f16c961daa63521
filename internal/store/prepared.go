package store

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache holds the read queries prepared once per pool, so SQLite parses and plans each
// once rather than on every call. database/sql prepares a statement again on each pool
// connection as it first uses it.
type stmtCache struct {
	m sync.Map // SQL text → *sql.Stmt
}

func (c *stmtCache) get(ctx context.Context, pool *sql.DB, query string) (*sql.Stmt, error) {
	if s, ok := c.m.Load(query); ok {
		return s.(*sql.Stmt), nil
	}
	s, err := pool.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := c.m.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt), nil
	}
	return s, nil
}

func (c *stmtCache) close() {
	c.m.Range(func(_, s any) bool {
		s.(*sql.Stmt).Close()
		return true
	})
}

// readStmt returns query prepared on the reader pool.
func (db *DB) readStmt(ctx context.Context, query string) (*sql.Stmt, error) {
	return db.rstmts.get(ctx, db.r, query)
}

// query runs a read on the reader pool through the statement cache. Every caller passes SQL
// fixed at its call site (arguments bound, never spliced), so the cache stays as small as the
// set of queries in this package.
func (db *DB) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	s, err := db.readStmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return s.QueryContext(ctx, args...)
}

// queryRow is query for one row. A statement that fails to prepare is run unprepared, which
// reports the same error through the Row.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	s, err := db.readStmt(ctx, query)
	if err != nil {
		return db.r.QueryRowContext(ctx, query, args...)
	}
	return s.QueryRowContext(ctx, args...)
}
