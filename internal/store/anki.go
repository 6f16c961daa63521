package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// Media is a stored image.
type Media struct {
	Hash string // hex SHA-256 of Data
	Type string
	Data []byte
}

// MediaFile returns a stored image by its hash, or ErrNotFound.
func (db *DB) MediaFile(ctx context.Context, hash string) (Media, error) {
	m := Media{Hash: hash}
	err := db.r.QueryRowContext(ctx, `SELECT type, data FROM media WHERE hash = ?`, hash).Scan(&m.Type, &m.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return Media{}, ErrNotFound
	}
	return m, err
}

// CardHistory is one card's replayed review history for a user: each answer's states, oldest
// first; the last answer's state becomes the card's.
type CardHistory struct {
	CardID  string
	Answers []HistoryAnswer
}

// HistoryAnswer is one answer of an imported history.
type HistoryAnswer struct {
	Rating        srs.Rating
	At            time.Time
	DurationMS    int64
	Before, After srs.Card
}

// AnkiImport is everything one Anki import stores, in one transaction: the cards (revisions
// with the import action), their images, and for the importing user each card's history and
// the cards to suspend. A card the user already has a state for keeps it: history is only
// written onto cards the user never studied.
type AnkiImport struct {
	UserID  int64
	Cards   []DeckCard
	Media   []Media
	History []CardHistory
	Suspend []string
}

// ImportAnki stores an import; it returns how many cards got history.
func (db *DB) ImportAnki(ctx context.Context, im AnkiImport, now time.Time) (withHistory int, err error) {
	err = db.tx(ctx, func(tx *sql.Tx) error {
		withHistory = 0
		for _, c := range im.Cards {
			if _, err := saveDeckCard(ctx, tx, c, ActionImport, im.UserID, now); err != nil {
				return err
			}
		}
		for _, m := range im.Media {
			if _, err := tx.ExecContext(ctx, `INSERT INTO media (hash, type, data, created_by, created_at)
				VALUES (?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`, m.Hash, m.Type, m.Data, nullID(im.UserID), ms(now)); err != nil {
				return err
			}
		}
		for _, h := range im.History {
			if len(h.Answers) == 0 {
				continue
			}
			var one int
			err := tx.QueryRowContext(ctx, `SELECT 1 FROM card_states WHERE user_id = ? AND card_id = ?`, im.UserID, h.CardID).Scan(&one)
			if err == nil {
				continue // studied here already: that progress wins
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			for _, a := range h.Answers {
				var elapsed float64
				if !a.Before.LastReview.IsZero() {
					elapsed = a.At.Sub(a.Before.LastReview).Hours() / 24
				}
				b, x := a.Before, a.After
				if _, err := tx.ExecContext(ctx, insertReviewSQL, im.UserID, h.CardID, int(a.Rating), ms(a.At),
					b.State, b.Step, b.Stability, b.Difficulty, ms(b.Due), ms(b.LastReview), b.Reps, b.Lapses,
					x.State, x.Stability, x.Difficulty, elapsed, x.Due.Sub(a.At).Hours()/24, a.DurationMS, ModeStudy); err != nil {
					return err
				}
			}
			f := h.Answers[len(h.Answers)-1].After
			if _, err := tx.ExecContext(ctx, upsertCardSQL, im.UserID, h.CardID, f.State, f.Step, f.Stability,
				f.Difficulty, ms(f.Due), ms(f.LastReview), f.Reps, f.Lapses); err != nil {
				return err
			}
			withHistory++
		}
		for _, id := range im.Suspend {
			if err := setSuspended(ctx, tx, im.UserID, id, true, now); err != nil {
				return err
			}
		}
		return nil
	})
	return withHistory, err
}
