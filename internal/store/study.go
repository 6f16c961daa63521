package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/study"
)

// Review modes recorded in the log.
const (
	ModeStudy = study.ModeStudy
	ModeMock  = study.ModeMock
)

// ErrStale is study.ErrStale: a write refused because the row moved on since the caller read
// it (a double submit, a stale tab). ErrConflict now only means a name already taken.
var ErrStale = study.ErrStale

// Review is one row of a user's review log.
type Review struct {
	ID              int64
	CardID          string
	Rating          srs.Rating
	ReviewedAt      time.Time
	Before          srs.Card // the whole state before the answer
	StateAfter      srs.State
	StabilityAfter  float64
	DifficultyAfter float64
	ElapsedDays     float64 // since the previous review
	ScheduledDays   float64 // interval the answer gave
	DurationMS      int64
	Mode            string
	UndoneAt        time.Time // zero unless undone
}

const cardCols = `state, step, stability, difficulty, due, last_review, reps, lapses`

const insertReviewSQL = `INSERT INTO review_log (user_id, card_id, rating, reviewed_at,
		state_before, step_before, stability_before, difficulty_before, due_before,
		last_review_before, reps_before, lapses_before, state_after, stability_after,
		difficulty_after, elapsed_days, scheduled_days, duration_ms, mode)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

const upsertCardSQL = `INSERT INTO card_states (user_id, card_id, ` + cardCols + `)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (user_id, card_id) DO UPDATE SET state = excluded.state, step = excluded.step,
		stability = excluded.stability, difficulty = excluded.difficulty, due = excluded.due,
		last_review = excluded.last_review, reps = excluded.reps, lapses = excluded.lapses`

func scanCard(row interface{ Scan(...any) error }, extra ...any) (srs.Card, error) {
	var c srs.Card
	var due, last int64
	dest := append(extra, &c.State, &c.Step, &c.Stability, &c.Difficulty, &due, &last, &c.Reps, &c.Lapses)
	if err := row.Scan(dest...); err != nil {
		return srs.Card{}, err
	}
	c.Due, c.LastReview = fromMS(due), fromMS(last)
	return c, nil
}

// RecordReview stores one answer whose new state the caller computed: before must be the state
// the answer was given on, or nothing is written and study.ErrStale is returned. Imports and
// tests use it; the app rates through study.Rate.
func (db *DB) RecordReview(ctx context.Context, userID int64, cardID string, before, after srs.Card,
	rating srs.Rating, now time.Time, durationMS int64, mode string) (int64, error) {
	_, stored, err := db.CardState(ctx, userID, cardID)
	if err != nil {
		return 0, err
	}
	return db.SaveReview(ctx, study.Review{UserID: userID, CardID: cardID, Stored: stored, Before: before, After: after,
		Logged: study.Logged{Rating: rating, At: now, DurationMS: durationMS, Mode: mode}})
}

const cardStateSQL = `SELECT ` + cardCols + ` FROM card_states WHERE user_id = ? AND card_id = ?`

// SaveReview implements study.Store: in one transaction, it writes r.After over the stored
// state only if that is still r.Before (compared by answer count; for a card never answered,
// only if no row appeared), and appends a log row holding the whole previous state, for an
// exact undo. Zero rows changed is study.ErrStale, with nothing written.
func (db *DB) SaveReview(ctx context.Context, r study.Review) (int64, error) {
	a := r.Logged
	if !a.Rating.Valid() {
		return 0, fmt.Errorf("record review: invalid rating %d", a.Rating)
	}
	if a.Mode != ModeStudy && a.Mode != ModeMock {
		return 0, fmt.Errorf("record review: unknown mode %q", a.Mode)
	}
	b, n := r.Before, r.After
	var id int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var res sql.Result
		var err error
		if r.Stored {
			res, err = tx.ExecContext(ctx, `UPDATE card_states SET state = ?, step = ?, stability = ?,
				difficulty = ?, due = ?, last_review = ?, reps = ?, lapses = ?
				WHERE user_id = ? AND card_id = ? AND reps = ?`,
				n.State, n.Step, n.Stability, n.Difficulty, ms(n.Due), ms(n.LastReview), n.Reps, n.Lapses,
				r.UserID, r.CardID, b.Reps)
		} else {
			res, err = tx.ExecContext(ctx, `INSERT INTO card_states (user_id, card_id, `+cardCols+`)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, card_id) DO NOTHING`,
				r.UserID, r.CardID, n.State, n.Step, n.Stability, n.Difficulty, ms(n.Due), ms(n.LastReview), n.Reps, n.Lapses)
		}
		if err != nil {
			return err
		}
		if changed, err := res.RowsAffected(); err != nil {
			return err
		} else if changed == 0 {
			return study.ErrStale
		}
		var elapsed float64
		if !b.LastReview.IsZero() {
			elapsed = a.At.Sub(b.LastReview).Hours() / 24
		}
		res, err = tx.ExecContext(ctx, insertReviewSQL,
			r.UserID, r.CardID, a.Rating, ms(a.At), b.State, b.Step, b.Stability,
			b.Difficulty, ms(b.Due), ms(b.LastReview), b.Reps, b.Lapses,
			n.State, n.Stability, n.Difficulty, elapsed, n.Due.Sub(a.At).Hours()/24, max(a.DurationMS, 0), a.Mode)
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// CardState returns a user's stored state for a card; ok is false for a card never answered
// (its state is the zero, New, card).
func (db *DB) CardState(ctx context.Context, userID int64, cardID string) (c srs.Card, ok bool, err error) {
	st, err := db.readStmt(ctx, cardStateSQL)
	if err != nil {
		return srs.Card{}, false, err
	}
	c, err = scanCard(st.QueryRowContext(ctx, userID, cardID))
	if errors.Is(err, sql.ErrNoRows) {
		return srs.Card{}, false, nil
	}
	return c, err == nil, err
}

// CardStates returns every stored card state of a user by card id, including cards no longer
// in the deck.
func (db *DB) CardStates(ctx context.Context, userID int64) (srs.States, error) {
	return db.states(ctx, `SELECT card_id, `+cardCols+` FROM card_states WHERE user_id = ?`, userID,
		func(rows *sql.Rows, id *string) (srs.Card, error) { return scanCard(rows, id) })
}

// QueueStates is CardStates with only each state's State and Due read, the rest left zero:
// what the study queue, the counts by state and the forecast look at, for a third of the
// cost. Scheduling an answer, or showing a card's progress, needs CardState.
func (db *DB) QueueStates(ctx context.Context, userID int64) (srs.States, error) {
	return db.states(ctx, `SELECT card_id, state, due FROM card_states WHERE user_id = ?`, userID,
		func(rows *sql.Rows, id *string) (srs.Card, error) {
			var c srs.Card
			var due int64
			err := rows.Scan(id, &c.State, &due)
			c.Due = fromMS(due)
			return c, err
		})
}

func (db *DB) states(ctx context.Context, query string, userID int64,
	scan func(*sql.Rows, *string) (srs.Card, error)) (srs.States, error) {
	rows, err := db.query(ctx, query, userID)
	if err != nil {
		return srs.States{}, err
	}
	defer rows.Close()
	var b srs.StatesBuilder
	for rows.Next() {
		var id string
		c, err := scan(rows, &id)
		if err != nil {
			return srs.States{}, err
		}
		b.Add(id, c)
	}
	if err := rows.Err(); err != nil {
		return srs.States{}, err
	}
	return b.States(), nil
}

const reviewCols = `id, card_id, rating, reviewed_at, state_before, step_before, stability_before,
	difficulty_before, due_before, last_review_before, reps_before, lapses_before, state_after,
	stability_after, difficulty_after, elapsed_days, scheduled_days, duration_ms, mode, undone`

func scanReview(row interface{ Scan(...any) error }) (Review, error) {
	var v Review
	var at, due, last, undone int64
	err := row.Scan(&v.ID, &v.CardID, &v.Rating, &at, &v.Before.State, &v.Before.Step,
		&v.Before.Stability, &v.Before.Difficulty, &due, &last, &v.Before.Reps, &v.Before.Lapses,
		&v.StateAfter, &v.StabilityAfter, &v.DifficultyAfter, &v.ElapsedDays, &v.ScheduledDays,
		&v.DurationMS, &v.Mode, &undone)
	if errors.Is(err, sql.ErrNoRows) {
		return Review{}, ErrNotFound
	}
	v.ReviewedAt, v.Before.Due, v.Before.LastReview, v.UndoneAt = fromMS(at), fromMS(due), fromMS(last), fromMS(undone)
	return v, err
}

// LastStudyReview returns the answer UndoLast would undo, or ErrNotFound.
func (db *DB) LastStudyReview(ctx context.Context, userID int64) (Review, error) {
	return scanReview(db.queryRow(ctx, lastStudyReviewSQL, userID))
}

var lastStudyReviewSQL = `SELECT ` + reviewCols + ` FROM review_log
	WHERE user_id = ? AND mode = 'study' AND undone = 0 ORDER BY id DESC LIMIT 1`

func lastStudyReview(ctx context.Context, tx *sql.Tx, userID int64) (Review, error) {
	return scanReview(tx.QueryRowContext(ctx, lastStudyReviewSQL, userID))
}

// UndoLast undoes the user's latest study answer that is not undone yet: the card gets back
// exactly the state it had (its row is deleted if it was New) and the log row is marked undone
// at now. It returns the card's id; ErrNotFound when there is nothing to undo, study.ErrStale
// when the card has been answered since (in a mock interview), which an undo would silently erase.
func (db *DB) UndoLast(ctx context.Context, userID int64, now time.Time) (string, error) {
	var cardID string
	err := db.tx(ctx, func(tx *sql.Tx) error {
		v, err := lastStudyReview(ctx, tx, userID)
		if err != nil {
			return err
		}
		var later int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM review_log
			WHERE user_id = ? AND card_id = ? AND id > ? AND undone = 0`, userID, v.CardID, v.ID).Scan(&later); err != nil {
			return err
		}
		if later > 0 {
			return study.ErrStale
		}
		b := v.Before
		if b.State == srs.New && b.Reps == 0 {
			_, err = tx.ExecContext(ctx, `DELETE FROM card_states WHERE user_id = ? AND card_id = ?`, userID, v.CardID)
		} else {
			_, err = tx.ExecContext(ctx, upsertCardSQL, userID, v.CardID, b.State, b.Step, b.Stability, b.Difficulty, ms(b.Due), ms(b.LastReview), b.Reps, b.Lapses)
		}
		if err != nil {
			return err
		}
		undone := max(ms(now), 1) // 0 means "not undone"
		if _, err := tx.ExecContext(ctx, `UPDATE review_log SET undone = ? WHERE id = ?`, undone, v.ID); err != nil {
			return err
		}
		cardID = v.CardID
		return nil
	})
	return cardID, err
}

// ReviewHistory lists a user's answers for one card, oldest first, without undone ones.
func (db *DB) ReviewHistory(ctx context.Context, userID int64, cardID string) ([]Review, error) {
	return db.reviews(ctx, `SELECT `+reviewCols+` FROM review_log
		WHERE user_id = ? AND card_id = ? AND undone = 0 ORDER BY id`, userID, cardID)
}

// ReviewsSince lists a user's answers (all modes, not undone) at or after since, oldest first.
func (db *DB) ReviewsSince(ctx context.Context, userID int64, since time.Time) ([]Review, error) {
	return db.reviews(ctx, `SELECT `+reviewCols+` FROM review_log
		WHERE user_id = ? AND reviewed_at >= ? AND undone = 0 ORDER BY reviewed_at, id`, userID, ms(since))
}

func (db *DB) reviews(ctx context.Context, q string, args ...any) ([]Review, error) {
	rows, err := db.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Review
	for rows.Next() {
		v, err := scanReview(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// NewIntroducedSince counts the new cards a user first answered in study mode at or after since
// (undone answers excluded): what the new-cards-per-day limit is checked against.
func (db *DB) NewIntroducedSince(ctx context.Context, userID int64, since time.Time) (int, error) {
	var n int
	err := db.queryRow(ctx, `SELECT count(DISTINCT card_id) FROM review_log
		WHERE user_id = ? AND reviewed_at >= ? AND state_before = 0 AND mode = 'study' AND undone = 0`,
		userID, ms(since)).Scan(&n)
	return n, err
}
