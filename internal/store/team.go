package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// Team view queries. They read the study (review_log, card_states) and mock-interview
// (mock_sessions, mock_answers) tables for every enabled account; who may see whom (admins
// everyone, members themselves and those who share: teamshare.go) is the caller's rule.

// TeamUsers lists the enabled accounts, by name.
func (db *DB) TeamUsers(ctx context.Context) ([]*User, error) {
	return db.queryUsers(ctx, "SELECT "+userCols+" FROM users WHERE disabled = 0 ORDER BY username")
}

// ReviewCounts counts each user's answers (all modes, undone ones excluded) at or after each of
// the given instants: out[userID][i] is the count since since[i].
func (db *DB) ReviewCounts(ctx context.Context, since ...time.Time) (map[int64][]int, error) {
	if len(since) == 0 {
		return map[int64][]int{}, nil
	}
	oldest := since[0]
	for _, t := range since {
		if t.Before(oldest) {
			oldest = t
		}
	}
	rows, err := db.query(ctx, `SELECT user_id, reviewed_at FROM review_log
		WHERE reviewed_at >= ? AND undone = 0`, ms(oldest))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]int{}
	for rows.Next() {
		var uid, at int64
		if err := rows.Scan(&uid, &at); err != nil {
			return nil, err
		}
		c := out[uid]
		if c == nil {
			c = make([]int, len(since))
			out[uid] = c
		}
		for i, t := range since {
			if at >= ms(t) {
				c[i]++
			}
		}
	}
	return out, rows.Err()
}

// MasteredCounts counts each user's cards whose stability is at least minStability days.
func (db *DB) MasteredCounts(ctx context.Context, minStability float64) (map[int64]int, error) {
	rows, err := db.query(ctx, `SELECT user_id, count(*) FROM card_states
		WHERE stability >= ? AND state <> 0 GROUP BY user_id`, minStability)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var uid int64
		var n int
		if err := rows.Scan(&uid, &n); err != nil {
			return nil, err
		}
		out[uid] = n
	}
	return out, rows.Err()
}

// MockAnswer is one question of a finished mock interview: what interview.Judge needs to score
// it as the session's summary does, with the card id for the caller to look the card up.
type MockAnswer struct {
	SessionID   int64
	CardID      string
	Depth       string // the session's depth: which key points count
	Covered     []int  // indexes of the answer bullets ticked
	PitfallsHit int
	HasText     bool  // something was typed
	SpokenMS    int64 // voiced time of the answer's latest recording, 0 without one
	UsedMS      int64
	TargetMS    int64
	Rating      int // 0 when not rated
}

// FinishedMockAnswers returns the answers of every finished mock session, by user id, in session
// then question order.
func (db *DB) FinishedMockAnswers(ctx context.Context) (map[int64][]MockAnswer, error) {
	rows, err := db.query(ctx, `SELECT s.user_id, a.session_id, a.card_id, s.depth, a.covered, a.pitfalls_hit,
			trim(a.typed_answer) <> '', coalesce((SELECT r.spoken_ms FROM recordings r
				WHERE r.mock_session_id = a.session_id AND r.mock_position = a.position AND r.followup = 0
				ORDER BY r.id DESC LIMIT 1), 0),
			a.used_ms, a.target_ms, a.rating
		FROM mock_sessions s JOIN mock_answers a ON a.session_id = s.id
		WHERE s.status = 'finished' ORDER BY s.user_id, s.id, a.position`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64][]MockAnswer{}
	for rows.Next() {
		var uid int64
		var a MockAnswer
		var covered, pitfalls string
		if err := rows.Scan(&uid, &a.SessionID, &a.CardID, &a.Depth, &covered, &pitfalls, &a.HasText, &a.SpokenMS,
			&a.UsedMS, &a.TargetMS, &a.Rating); err != nil {
			return nil, err
		}
		if covered != "" {
			if err := json.Unmarshal([]byte(covered), &a.Covered); err != nil {
				return nil, fmt.Errorf("mock session %d: covered: %w", a.SessionID, err)
			}
		}
		if a.PitfallsHit, err = jsonLen(pitfalls); err != nil {
			return nil, fmt.Errorf("mock session %d: pitfalls: %w", a.SessionID, err)
		}
		out[uid] = append(out[uid], a)
	}
	return out, rows.Err()
}

func jsonLen(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	var v []json.RawMessage
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return 0, err
	}
	return len(v), nil
}

// TeamCardStates returns, for each enabled user, their stored card states by card id.
func (db *DB) TeamCardStates(ctx context.Context) (map[int64]map[string]srs.Card, error) {
	rows, err := db.query(ctx, `SELECT c.user_id, c.card_id, `+prefixed("c.", cardCols)+`
		FROM card_states c JOIN users u ON u.id = c.user_id
		WHERE u.disabled = 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]map[string]srs.Card{}
	for rows.Next() {
		var uid int64
		var id string
		c, err := scanCard(rows, &uid, &id)
		if err != nil {
			return nil, err
		}
		if out[uid] == nil {
			out[uid] = map[string]srs.Card{}
		}
		out[uid][id] = c
	}
	return out, rows.Err()
}

// TeamLastRatings returns, for each enabled user, the rating of their latest answer
// (undone ones excluded, study and mock alike) to each card they have answered.
func (db *DB) TeamLastRatings(ctx context.Context) (map[int64]map[string]int, error) {
	// SQLite takes the bare column rating from the row holding max(id).
	rows, err := db.query(ctx, `SELECT l.user_id, l.card_id, l.rating, max(l.id)
		FROM review_log l JOIN users u ON u.id = l.user_id
		WHERE l.undone = 0 AND u.disabled = 0
		GROUP BY l.user_id, l.card_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]map[string]int{}
	for rows.Next() {
		var uid, last int64
		var card string
		var rating int
		if err := rows.Scan(&uid, &card, &rating, &last); err != nil {
			return nil, err
		}
		if out[uid] == nil {
			out[uid] = map[string]int{}
		}
		out[uid][card] = rating
	}
	return out, rows.Err()
}
