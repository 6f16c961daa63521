package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/rehearse/rehearse/internal/srs"
)

// CardProgress is a user's work on one card, as the card page shows it.
type CardProgress struct {
	State      srs.Card
	Studied    bool        // a state is stored (it may be New again)
	History    []Review    // answers not undone, oldest first
	Recordings []Recording // oldest first
}

// progressWidth is the widest of the three row shapes: a recording's columns, after the tag.
const progressWidth = 20

// cardProgressSQL reads the state, the answers and the recordings of one card in one statement:
// each database/sql query cost more than the look-ups it ran, and this is every signed-in card
// page. Rows are tagged by their first column and padded with NULLs to one width.
var cardProgressSQL = `SELECT 0, ` + cardCols + nulls(progressWidth-8) + `
	FROM card_states WHERE user_id = ?1 AND card_id = ?2
	UNION ALL SELECT 1, ` + reviewCols + `
	FROM review_log WHERE user_id = ?1 AND card_id = ?2 AND undone = 0
	UNION ALL SELECT 2, ` + recordingCols + nulls(progressWidth-20) + `
	FROM recordings WHERE user_id = ?1 AND card_id = ?2
	ORDER BY 1, 2`

func nulls(n int) string { return strings.Repeat(", NULL", n) }

// CardProgress returns what CardState, ReviewHistory and CardRecordings return, in one query.
func (db *DB) CardProgress(ctx context.Context, userID int64, cardID string) (CardProgress, error) {
	rows, err := db.query(ctx, cardProgressSQL, userID, cardID)
	if err != nil {
		return CardProgress{}, err
	}
	defer rows.Close()
	var p CardProgress
	for rows.Next() {
		var tag int
		if err := (taggedRow{rows, &tag}).Scan(); err != nil { // database/sql lets a row be scanned again
			return CardProgress{}, err
		}
		row := taggedRow{rows, new(int)}
		switch tag {
		case 0:
			p.State, err = scanCard(row)
			p.Studied = err == nil
		case 1:
			var v Review
			if v, err = scanReview(row); err == nil {
				p.History = append(p.History, v)
			}
		case 2:
			var r Recording
			if r, err = scanRecording(row); err == nil {
				p.Recordings = append(p.Recordings, r)
			}
		default:
			err = fmt.Errorf("card progress: row tagged %d", tag)
		}
		if err != nil {
			return CardProgress{}, err
		}
	}
	return p, rows.Err()
}

// taggedRow scans one row of cardProgressSQL: the tag, then dest, then the padding.
type taggedRow struct {
	rows *sql.Rows
	tag  *int
}

func (t taggedRow) Scan(dest ...any) error {
	all := make([]any, 0, 1+progressWidth)
	all = append(append(all, t.tag), dest...)
	for len(all) < 1+progressWidth {
		all = append(all, new(any))
	}
	return t.rows.Scan(all...)
}
