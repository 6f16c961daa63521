package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/study"
)

// Answers from many users arrive at once and all need the one writer connection. Written one
// transaction each, every answer pays for BEGIN, COMMIT and the WAL frames of the pages it
// touched, and the answers behind it wait their turn in database/sql's pool. reviewQueue
// collects the answers that arrive while a transaction runs and writes them together in the
// next one (a group commit): each answer is still read, checked and written inside the
// transaction that commits it, in arrival order, so an answer sees every answer before it (two
// tabs answering one card: the second is stale), and it is acknowledged only once that commit
// returns. The pages the answers share (the log's last leaf, the index pages) go to the WAL once
// per commit instead of once per answer.

// maxReviewBatch bounds one transaction, so a burst cannot hold the writer for long.
const maxReviewBatch = 64

type reviewJob struct {
	ctx    context.Context
	userID int64
	cardID string
	a      study.Logged
	next   func(before srs.Card) (srs.Card, error)

	id    int64
	after srs.Card // the state written, as the database keeps it (whole milliseconds, UTC)
	err   error
	done  chan struct{}
}

type reviewQueue struct {
	start sync.Once
	in    chan *reviewJob
	quit  chan struct{} // closed by DB.Close
	gone  chan struct{} // closed when the writing goroutine has returned
	stop  sync.Once
}

var errClosed = errors.New("store: database closed")

func (q *reviewQueue) init() {
	q.in = make(chan *reviewJob, maxReviewBatch)
	q.quit = make(chan struct{})
	q.gone = make(chan struct{})
}

// submitReview queues job and waits for its transaction; the writing goroutine starts with the
// first answer. A job never taken because the database closed gets errClosed.
func (db *DB) submitReview(job *reviewJob) {
	q := &db.reviewq
	q.start.Do(func() {
		q.init()
		go db.writeReviews()
	})
	select {
	case q.in <- job:
	case <-q.quit:
		job.err = errClosed
		return
	case <-job.ctx.Done():
		job.err = job.ctx.Err()
		return
	}
	select {
	case <-job.done:
	case <-q.gone:
		select {
		case <-job.done: // its batch finished before the goroutine returned
		default:
			job.err = errClosed
		}
	}
}

// close stops the writing goroutine after the batch it is running.
func (q *reviewQueue) close() {
	q.start.Do(func() { // never started: nothing will write
		q.init()
		close(q.gone)
	})
	q.stop.Do(func() { close(q.quit) })
	<-q.gone
}

// writeReviews is the one goroutine that writes answers: it takes the first waiting answer and
// every other one already queued behind it, up to maxReviewBatch, and writes them together.
func (db *DB) writeReviews() {
	q := &db.reviewq
	defer close(q.gone)
	batch := make([]*reviewJob, 0, maxReviewBatch)
	for {
		select {
		case <-q.quit:
			return
		case j := <-q.in:
			batch = append(batch[:0], j)
		}
	more:
		for len(batch) < maxReviewBatch {
			select {
			case j := <-q.in:
				batch = append(batch, j)
			default:
				break more
			}
		}
		db.writeBatch(batch)
		for _, j := range batch {
			if j.err == nil && j.id != 0 { // committed: the cached states take the new one (progresscache.go)
				db.progress.answered(j.userID, j.cardID, j.after)
			} else {
				db.progress.drop(j.userID)
			}
			close(j.done)
		}
		clear(batch) // drop the requests' contexts and closures until the next batch
	}
}

// writeBatch writes batch in one transaction. If a write fails or the commit does, nothing of
// the batch is kept and each answer is written again in a transaction of its own, so one bad
// answer fails alone.
func (db *DB) writeBatch(batch []*reviewJob) {
	// Not a request's context: one client going away must not roll back the others' answers.
	ctx := context.Background()
	stmts, err := db.writeStmts(ctx, cardStateSQL, upsertCardSQL, insertReviewSQL)
	if err != nil {
		for _, j := range batch {
			j.err = err
		}
		return
	}
	if len(batch) > 1 {
		err = db.tx(ctx, func(tx *sql.Tx) error {
			b := bindReview(ctx, tx, stmts)
			for _, j := range batch {
				if j.id, j.err = 0, j.ctx.Err(); j.err != nil {
					continue // the request gave up before its turn: nothing written for it
				}
				var wrote bool
				if j.id, wrote, j.err = b.apply(ctx, j); j.err != nil && wrote {
					return j.err
				}
			}
			return nil
		})
		if err == nil {
			return
		}
	}
	for _, j := range batch {
		if j.id, j.err = 0, j.ctx.Err(); j.err != nil {
			continue
		}
		j.err = db.tx(ctx, func(tx *sql.Tx) error {
			var err error
			j.id, _, err = bindReview(ctx, tx, stmts).apply(ctx, j)
			return err
		})
		if j.err != nil {
			j.id = 0
		}
	}
}

// boundReview is the three statements of an answer bound to one transaction.
type boundReview struct{ read, upsert, log *sql.Stmt }

func bindReview(ctx context.Context, tx *sql.Tx, s []*sql.Stmt) boundReview {
	return boundReview{tx.StmtContext(ctx, s[0]), tx.StmtContext(ctx, s[1]), tx.StmtContext(ctx, s[2])}
}

// apply reads the card's state, asks the job's next for the new one and writes it with its log
// row. wrote is false when it failed before writing anything (next refused, or the read
// failed): the transaction can carry on with the other answers.
func (b boundReview) apply(ctx context.Context, j *reviewJob) (id int64, wrote bool, err error) {
	before, err := scanCard(b.read.QueryRowContext(ctx, j.userID, j.cardID))
	if errors.Is(err, sql.ErrNoRows) {
		before, err = srs.Card{}, nil
	}
	if err != nil {
		return 0, false, err
	}
	after, err := callNext(j.next, before)
	if err != nil {
		return 0, false, err
	}
	if _, err := b.upsert.ExecContext(ctx, j.userID, j.cardID, after.State, after.Step, after.Stability, after.Difficulty,
		ms(after.Due), ms(after.LastReview), after.Reps, after.Lapses); err != nil {
		return 0, true, err
	}
	j.after = after
	j.after.Due, j.after.LastReview = fromMS(ms(after.Due)), fromMS(ms(after.LastReview)) // as a read gives it back
	a := j.a
	var elapsed float64
	if !before.LastReview.IsZero() {
		elapsed = a.At.Sub(before.LastReview).Hours() / 24
	}
	scheduled := after.Due.Sub(a.At).Hours() / 24
	res, err := b.log.ExecContext(ctx,
		j.userID, j.cardID, a.Rating, ms(a.At), before.State, before.Step, before.Stability,
		before.Difficulty, ms(before.Due), ms(before.LastReview), before.Reps, before.Lapses,
		after.State, after.Stability, after.Difficulty, elapsed, scheduled, max(a.DurationMS, 0), a.Mode)
	if err != nil {
		return 0, true, err
	}
	// The connection's last insert: an Exec costs less than a query returning the id.
	id, err = res.LastInsertId()
	return id, true, err
}

// callNext runs the caller's scheduling step on the writing goroutine, where a panic would
// otherwise take the whole process down instead of failing one request.
func callNext(next func(srs.Card) (srs.Card, error), before srs.Card) (after srs.Card, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("record review: panic: %v", v)
		}
	}()
	return next(before)
}
