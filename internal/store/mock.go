package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Mock session statuses.
const (
	MockActive    = "active"
	MockFinished  = "finished"
	MockAbandoned = "abandoned"
)

// MockStaleAfter is how long a session may sit unfinished before it counts as abandoned.
const MockStaleAfter = 24 * time.Hour

// MockSettings are the choices made on the setup form.
type MockSettings struct {
	Seed          uint64
	Seeded        bool     // the questions came from the seed alone
	Topics        []string // topic slugs
	Tags          []string
	N             int
	Depth         string // basics | solid | deeper
	FollowUps     bool
	Clock         string        // soft | strict
	Target        time.Duration // override for every question; 0 = the cards' timing
	RecordReviews bool
}

// MockSession is a session with its questions in order.
type MockSession struct {
	ID         int64
	UserID     int64
	CreatedAt  time.Time
	Settings   MockSettings
	Status     string
	FinishedAt time.Time
	Answers    []MockTurn
}

// MockQuestion is a question fixed when the session is created.
type MockQuestion struct {
	CardID         string
	Target         time.Duration
	FollowUpIndex  int // -1 for none
	FollowUpTarget time.Duration
}

// MockTurn is one question of a session and what happened to it so far.
type MockTurn struct {
	Position int
	MockQuestion
	ShownAt, AnsweredAt time.Time
	Used                time.Duration
	Expired             bool
	Typed               string
	Covered             []int // answer-bullet indexes
	PitfallsHit         []int
	Checked             bool
	FollowUpShownAt     time.Time
	FollowUpAnsweredAt  time.Time
	FollowUpUsed        time.Duration
	FollowUpTyped       string
	Rating              int // 0 until rated
	RatedAt             time.Time
	ReviewLogID         int64
}

// Current returns the index of the first unrated question, or -1 when all are rated.
func (s *MockSession) Current() int {
	for i, a := range s.Answers {
		if a.Rating == 0 {
			return i
		}
	}
	return -1
}

// CreateMockSession stores a new session with its questions and marks the user's other active
// sessions abandoned (one mock at a time).
func (db *DB) CreateMockSession(ctx context.Context, userID int64, st MockSettings, qs []MockQuestion, now time.Time) (*MockSession, error) {
	if len(qs) == 0 {
		return nil, errors.New("create mock session: no questions")
	}
	var id int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE mock_sessions SET status = ?, finished_at = ?
			WHERE user_id = ? AND status = ?`, MockAbandoned, ms(now), userID, MockActive); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO mock_sessions (user_id, created_at, seed, seeded, topics,
				tags, n, depth, followups, clock, target_ms, record_reviews)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			userID, ms(now), int64(st.Seed), st.Seeded, strings.Join(st.Topics, ","), strings.Join(st.Tags, ","),
			st.N, st.Depth, st.FollowUps, st.Clock, st.Target.Milliseconds(), st.RecordReviews).Scan(&id)
		if err != nil {
			return err
		}
		for i, q := range qs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO mock_answers (session_id, position, card_id,
					target_ms, followup_index, followup_target_ms) VALUES (?, ?, ?, ?, ?, ?)`,
				id, i, q.CardID, q.Target.Milliseconds(), q.FollowUpIndex, q.FollowUpTarget.Milliseconds()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("create mock session: %w", err)
	}
	return db.MockSession(ctx, userID, id, now)
}

const mockSessionCols = `id, user_id, created_at, seed, seeded, topics, tags, n, depth, followups, clock,
	target_ms, record_reviews, status, finished_at`

func scanMockSession(row interface{ Scan(...any) error }, now time.Time) (*MockSession, error) {
	var s MockSession
	var created, seed, target, finished int64
	var topics, tags string
	err := row.Scan(&s.ID, &s.UserID, &created, &seed, &s.Settings.Seeded, &topics, &tags, &s.Settings.N,
		&s.Settings.Depth, &s.Settings.FollowUps, &s.Settings.Clock, &target, &s.Settings.RecordReviews,
		&s.Status, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	s.CreatedAt, s.FinishedAt = fromMS(created), fromMS(finished)
	s.Settings.Seed, s.Settings.Target = uint64(seed), time.Duration(target)*time.Millisecond
	s.Settings.Topics, s.Settings.Tags = splitList(topics), splitList(tags)
	// A session left for a day reads as abandoned even before anything rewrites its row.
	if s.Status == MockActive && now.Sub(s.CreatedAt) > MockStaleAfter {
		s.Status = MockAbandoned
	}
	return &s, nil
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// MockSession loads one of the user's sessions with its answers; another user's session is
// ErrNotFound.
func (db *DB) MockSession(ctx context.Context, userID, id int64, now time.Time) (*MockSession, error) {
	s, err := scanMockSession(db.queryRow(ctx, `SELECT `+mockSessionCols+` FROM mock_sessions
		WHERE id = ? AND user_id = ?`, id, userID), now)
	if err != nil {
		return nil, err
	}
	byID, err := db.mockTurns(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	s.Answers = byID[id]
	return s, nil
}

// MockHistory lists the user's sessions, newest first, with their answers.
func (db *DB) MockHistory(ctx context.Context, userID int64, limit int, now time.Time) ([]*MockSession, error) {
	rows, err := db.query(ctx, `SELECT `+mockSessionCols+` FROM mock_sessions
		WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*MockSession
	var ids []int64
	for rows.Next() {
		s, err := scanMockSession(rows, now)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		ids = append(ids, s.ID)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	byID, err := db.mockTurns(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, s := range out {
		s.Answers = byID[s.ID]
	}
	return out, nil
}

func (db *DB) mockTurns(ctx context.Context, ids []int64) (map[int64][]MockTurn, error) {
	out := map[int64][]MockTurn{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := db.query(ctx, `SELECT session_id, position, card_id, target_ms, shown_at, answered_at,
			used_ms, expired, typed_answer, covered, pitfalls_hit, checked, followup_index, followup_target_ms,
			followup_shown_at, followup_answered_at, followup_used_ms, followup_typed, rating, rated_at, review_log_id
		FROM mock_answers WHERE session_id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)
		ORDER BY session_id, position`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var a MockTurn
		var sid, target, shown, answered, used, fTarget, fShown, fAnswered, fUsed, rated int64
		var covered, pitfalls string
		if err := rows.Scan(&sid, &a.Position, &a.CardID, &target, &shown, &answered, &used, &a.Expired,
			&a.Typed, &covered, &pitfalls, &a.Checked, &a.FollowUpIndex, &fTarget, &fShown, &fAnswered,
			&fUsed, &a.FollowUpTyped, &a.Rating, &rated, &a.ReviewLogID); err != nil {
			return nil, err
		}
		a.Target, a.Used = msDur(target), msDur(used)
		a.FollowUpTarget, a.FollowUpUsed = msDur(fTarget), msDur(fUsed)
		a.ShownAt, a.AnsweredAt, a.RatedAt = fromMS(shown), fromMS(answered), fromMS(rated)
		a.FollowUpShownAt, a.FollowUpAnsweredAt = fromMS(fShown), fromMS(fAnswered)
		if err := json.Unmarshal([]byte(covered), &a.Covered); err != nil {
			return nil, fmt.Errorf("mock answer %d/%d covered: %w", sid, a.Position, err)
		}
		if err := json.Unmarshal([]byte(pitfalls), &a.PitfallsHit); err != nil {
			return nil, fmt.Errorf("mock answer %d/%d pitfalls: %w", sid, a.Position, err)
		}
		out[sid] = append(out[sid], a)
	}
	return out, rows.Err()
}

func msDur(v int64) time.Duration { return time.Duration(v) * time.Millisecond }

func jsonInts(v []int) string {
	if len(v) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(v) // []int always marshals
	return string(b)
}

// updateAnswer runs one guarded UPDATE on an answer of an active session; when the guard (the
// step it expects) no longer holds, it returns ErrStale: a double submit or a stale tab.
func (db *DB) updateAnswer(ctx context.Context, sessionID int64, pos int, set, guard string, args ...any) error {
	return db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE mock_answers SET `+set+`
			WHERE session_id = ? AND position = ? AND `+guard+` AND EXISTS (
				SELECT 1 FROM mock_sessions WHERE id = ? AND status = 'active')`,
			append(args, sessionID, pos, sessionID)...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrStale
		}
		return nil
	})
}

// MarkMockShown stamps when a question was first shown; later calls change nothing.
func (db *DB) MarkMockShown(ctx context.Context, sessionID int64, pos int, now time.Time) error {
	err := db.updateAnswer(ctx, sessionID, pos, "shown_at = ?", "shown_at = 0", ms(now))
	if errors.Is(err, ErrStale) {
		return nil
	}
	return err
}

// MockSubmission is an answer as the server judged it.
type MockSubmission struct {
	At       time.Time
	Used     time.Duration
	Expired  bool
	Typed    string
	Covered  []int // pre-ticked by the heuristic
	Pitfalls []int
}

// SubmitMockAnswer records the main answer of a shown, unanswered question.
func (db *DB) SubmitMockAnswer(ctx context.Context, sessionID int64, pos int, sub MockSubmission) error {
	return db.updateAnswer(ctx, sessionID, pos,
		"answered_at = ?, used_ms = ?, expired = ?, typed_answer = ?, covered = ?, pitfalls_hit = ?",
		"shown_at > 0 AND answered_at = 0",
		ms(sub.At), sub.Used.Milliseconds(), sub.Expired, sub.Typed, jsonInts(sub.Covered), jsonInts(sub.Pitfalls))
}

// SaveMockChecklist stores the user's corrected checklists of an answered, unrated question.
func (db *DB) SaveMockChecklist(ctx context.Context, sessionID int64, pos int, covered, pitfalls []int) error {
	return db.updateAnswer(ctx, sessionID, pos, "covered = ?, pitfalls_hit = ?, checked = 1",
		"answered_at > 0 AND rating = 0", jsonInts(covered), jsonInts(pitfalls))
}

// MarkFollowUpShown stamps when the follow-up was first shown; later calls change nothing.
func (db *DB) MarkFollowUpShown(ctx context.Context, sessionID int64, pos int, now time.Time) error {
	err := db.updateAnswer(ctx, sessionID, pos, "followup_shown_at = ?",
		"checked = 1 AND followup_index >= 0 AND followup_shown_at = 0", ms(now))
	if errors.Is(err, ErrStale) {
		return nil
	}
	return err
}

// SubmitFollowUp records the follow-up answer.
func (db *DB) SubmitFollowUp(ctx context.Context, sessionID int64, pos int, at time.Time, used time.Duration, typed string) error {
	return db.updateAnswer(ctx, sessionID, pos, "followup_answered_at = ?, followup_used_ms = ?, followup_typed = ?",
		"followup_shown_at > 0 AND followup_answered_at = 0", ms(at), used.Milliseconds(), typed)
}

// ClaimMockRating sets the rating of an answered, unrated question. Claiming first means a
// double submit cannot record two reviews: the second claim gets ErrStale.
func (db *DB) ClaimMockRating(ctx context.Context, sessionID int64, pos, rating int, now time.Time) error {
	if rating < 1 || rating > 4 {
		return fmt.Errorf("mock rating %d: want 1 to 4", rating)
	}
	return db.updateAnswer(ctx, sessionID, pos, "rating = ?, rated_at = ?", "answered_at > 0 AND rating = 0",
		rating, ms(now))
}

// SetMockReviewLog links a rated answer to the review it was recorded as.
func (db *DB) SetMockReviewLog(ctx context.Context, sessionID int64, pos int, logID int64) error {
	return db.exec(ctx, `UPDATE mock_answers SET review_log_id = ? WHERE session_id = ? AND position = ?`,
		logID, sessionID, pos)
}

// FinishMockSession marks an active session finished (or abandoned).
func (db *DB) FinishMockSession(ctx context.Context, sessionID int64, status string, now time.Time) error {
	if status != MockFinished && status != MockAbandoned {
		return fmt.Errorf("finish mock session: bad status %q", status)
	}
	return db.exec(ctx, `UPDATE mock_sessions SET status = ?, finished_at = ? WHERE id = ? AND status = 'active'`,
		status, ms(now), sessionID)
}
