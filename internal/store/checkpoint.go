package store

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// A commit in WAL mode appends the pages it changed to the -wal file; a checkpoint copies them
// back into the database file and syncs it. Left to SQLite, the commit that takes the log past
// 1,000 pages runs the checkpoint itself, on the one writer connection, and every answer queued
// behind it waits: under a stream of ratings a fifth of the writer's time (perf). checkpointer
// does most of that copying beside the writer instead: a passive checkpoint, on a connection of
// its own, soon after writes (WAL lets a checkpoint and a writer run at once).
//
// A passive checkpoint never waits, so under steady writes it trails the log's end, and the log
// starts over from its beginning only once all of it is copied; readers and writers that never
// pause would let it grow without end. So once the log passes walRestartPages the checkpointer
// runs a RESTART checkpoint on the writer's connection: it takes its turn in the queue for that
// connection, so no write can slip in and keep it waiting, copies the little the passive ones
// left, waits for the readers still on the old log, and the next write starts the log over.
// The writer keeps SQLite's own checkpoint, further out, for writes the checkpointer misses.
// While a RESTART waits for those readers (up to the connection's busy timeout) writes wait
// too; reads here take milliseconds. A 50 ms limit on that wait was tried: under readers that
// never pause it gave up often enough that the log ran on to the writer's own checkpoint.
const (
	walRestartPages  = 2000 // 8 MiB of 4 KiB pages
	walBackstopPages = 4 * walRestartPages
	checkpointDelay  = 20 * time.Millisecond // lets the commits of a burst share one checkpoint
)

type checkpointer struct {
	conn      *sql.DB // one connection, used by run alone
	writer    *sql.DB // the store's writer, for the RESTART
	restartAt int     // walRestartPages; tests set less before their first write
	kick      chan struct{}
	ctx       context.Context // cancelled by close, which then waits for gone
	cancel    context.CancelFunc
	gone      chan struct{}
	stop      sync.Once
}

func startCheckpointer(path string, writer *sql.DB) (*checkpointer, error) {
	c, err := sql.Open("sqlite", dsn(path, false)) // query_only still lets it checkpoint
	if err != nil {
		return nil, err
	}
	c.SetMaxOpenConns(1)
	cp := &checkpointer{conn: c, writer: writer, restartAt: walRestartPages, kick: make(chan struct{}, 1), gone: make(chan struct{})}
	cp.ctx, cp.cancel = context.WithCancel(context.Background())
	go cp.run()
	return cp, nil
}

// wrote tells the checkpointer a transaction committed. It never blocks; before Open has
// started the checkpointer (cp nil) it does nothing.
func (cp *checkpointer) wrote() {
	if cp == nil {
		return
	}
	select {
	case cp.kick <- struct{}{}:
	default:
	}
}

func (cp *checkpointer) run() {
	defer close(cp.gone)
	ctx := cp.ctx
	for {
		select {
		case <-ctx.Done():
			return
		case <-cp.kick:
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(checkpointDelay):
		}
		// A checkpoint that fails (busy with the writer's own) leaves the log to the next one:
		// the log grows meanwhile, and no commit is lost.
		if log, err := checkpoint(ctx, cp.conn, "PASSIVE"); err == nil && log >= cp.restartAt {
			checkpoint(ctx, cp.writer, "RESTART")
		}
	}
}

// checkpoint runs one checkpoint in mode on db and returns the log's length in pages.
func checkpoint(ctx context.Context, db *sql.DB, mode string) (log int, err error) {
	var busy, copied int
	err = db.QueryRowContext(ctx, "PRAGMA wal_checkpoint("+mode+")").Scan(&busy, &log, &copied)
	return log, err
}

// close stops the checkpointer; a second call, or one on a nil checkpointer, does nothing.
func (cp *checkpointer) close() {
	if cp == nil {
		return
	}
	cp.stop.Do(func() {
		cp.cancel()
		<-cp.gone
		cp.conn.Close()
	})
}
