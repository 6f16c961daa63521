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

// Store is what Rate needs from storage. ApplyReview reads the card's stored state inside one
// write transaction, passes it to next, and when next returns a state (no error) writes it and
// a log row for the answer in that same transaction, returning the log row's id. A card never
// answered comes as the zero (New) card.
type Store interface {
	ApplyReview(ctx context.Context, userID int64, cardID string, a Logged,
		next func(before srs.Card) (srs.Card, error)) (logID int64, err error)
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

// Rate schedules the answer with sc against the state stored at the moment of writing and
// records it: one read and two writes, in one transaction.
func Rate(ctx context.Context, st Store, sc srs.Scheduler, a Answer) (Rated, error) {
	if !a.Rating.Valid() {
		return Rated{}, fmt.Errorf("rate: invalid rating %d", a.Rating)
	}
	if a.Mode != ModeStudy && a.Mode != ModeMock {
		return Rated{}, fmt.Errorf("rate: unknown mode %q", a.Mode)
	}
	var out Rated
	took := min(max(a.Took, 0), MaxAnswerTime)
	id, err := st.ApplyReview(ctx, a.UserID, a.CardID, Logged{Rating: a.Rating, At: a.At, DurationMS: took.Milliseconds(), Mode: a.Mode},
		func(before srs.Card) (srs.Card, error) {
			if a.ShownReps >= 0 && before.Reps != a.ShownReps {
				return srs.Card{}, ErrStale
			}
			out.Before = before
			out.After = sc.ReviewCard(a.CardID, before, a.Rating, a.At)
			return out.After, nil
		})
	if err != nil {
		return Rated{}, err
	}
	out.LogID = id
	return out, nil
}

// Preview is the state each rating would give the card now, Again first, with the same fuzz
// Rate applies.
func Preview(sc srs.Scheduler, cardID string, c srs.Card, now time.Time) [4]srs.Card {
	return sc.PreviewCard(cardID, c, now)
}
