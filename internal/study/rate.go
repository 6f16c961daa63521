package study

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// Review modes recorded in the log.
const (
	ModeStudy = "study"
	ModeMock  = "mock"
)

// MaxAnswerTime caps the recorded time taken: a tab left open overnight is not an 8-hour answer.
const MaxAnswerTime = time.Hour

// ErrStale means the card (or answer) moved on since the page was shown: a double submit, a
// second tab, a mock answer since. Nothing was written.
var ErrStale = errors.New("stale: answered again since this was shown")

// Store is what Rate needs from storage: the card's stored state (ok false and the zero, New,
// card when never answered), and one write of an answer that Rate has scheduled.
type Store interface {
	CardState(ctx context.Context, userID int64, cardID string) (c srs.Card, ok bool, err error)
	// SaveReview writes r.After over r.Before and a log row for the answer in one transaction,
	// only if the stored state is still r.Before (by its answer count; no row when
	// r.Stored is false), and returns the log row's id; otherwise it writes nothing and
	// returns ErrStale.
	SaveReview(ctx context.Context, r Review) (logID int64, err error)
}

// Review is an answer scheduled and ready to store.
type Review struct {
	UserID        int64
	CardID        string
	Stored        bool // a state row existed when Before was read
	Before, After srs.Card
	Logged
}

// Logged is what the review log keeps about an answer besides the states.
type Logged struct {
	Rating     srs.Rating
	At         time.Time
	DurationMS int64
	Mode       string
}

// Answer is one rating of one card by one user.
type Answer struct {
	UserID int64
	CardID string
	Rating srs.Rating
	At     time.Time
	Took   time.Duration // time taken to answer; clamped to [0, MaxAnswerTime]
	Mode   string        // ModeStudy or ModeMock
	// ShownReps is the card's answer count when it was shown; the answer is stale (ErrStale)
	// if the stored count differs. Negative skips the check (a mock rates what it asked).
	ShownReps int
}

// Rated is what an answer did.
type Rated struct {
	LogID         int64
	Before, After srs.Card
}

// Rate reads the card's stored state, schedules the answer with sc and stores it with one
// store call, which refuses (ErrStale) if another answer was stored meanwhile.
func Rate(ctx context.Context, st Store, sc srs.Scheduler, a Answer) (Rated, error) {
	if !a.Rating.Valid() {
		return Rated{}, fmt.Errorf("rate: invalid rating %d", a.Rating)
	}
	if a.Mode != ModeStudy && a.Mode != ModeMock {
		return Rated{}, fmt.Errorf("rate: unknown mode %q", a.Mode)
	}
	before, stored, err := st.CardState(ctx, a.UserID, a.CardID)
	if err != nil {
		return Rated{}, err
	}
	if a.ShownReps >= 0 && before.Reps != a.ShownReps {
		return Rated{}, ErrStale
	}
	took := min(max(a.Took, 0), MaxAnswerTime)
	r := Review{UserID: a.UserID, CardID: a.CardID, Stored: stored, Before: before,
		After:  sc.ReviewCard(a.CardID, before, a.Rating, a.At),
		Logged: Logged{Rating: a.Rating, At: a.At, DurationMS: took.Milliseconds(), Mode: a.Mode}}
	id, err := st.SaveReview(ctx, r)
	if err != nil {
		return Rated{}, err
	}
	return Rated{LogID: id, Before: r.Before, After: r.After}, nil
}

// Preview is the state each rating would give the card now, Again first, with the same fuzz
// Rate applies.
func Preview(sc srs.Scheduler, cardID string, c srs.Card, now time.Time) [4]srs.Card {
	return sc.PreviewCard(cardID, c, now)
}
