package study

import (
	"context"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
)

// QueueReader is what building a user's queue reads from the store.
type QueueReader interface {
	// QueueStates returns the user's stored states by card id, State and Due at least.
	QueueStates(ctx context.Context, userID int64) (srs.States, error)
	// NewIntroducedSince counts the new cards the user started in study since a moment.
	NewIntroducedSince(ctx context.Context, userID int64, since time.Time) (int, error)
	// Suspended is the set of cards the user took out of study.
	Suspended(ctx context.Context, userID int64) (map[string]bool, error)
}

// Plan is a user's queue at a moment with what it was built from.
type Plan struct {
	Queue
	States    srs.States // each stored card's State and Due
	NewToday  int        // new cards started this study day
	Suspended map[string]bool
}

// LoadQueue reads a user's progress and builds their queue over cards (in deck order) at now,
// in their zone loc. newLimit gives the day's new-card limit for the states read (an interview
// date raises it).
func LoadQueue(ctx context.Context, r QueueReader, userID int64, cards []*deck.Card, now time.Time,
	loc *time.Location, newLimit func(srs.States) int) (Plan, error) {
	var p Plan
	var err error
	if p.States, err = r.QueueStates(ctx, userID); err != nil {
		return Plan{}, err
	}
	if p.NewToday, err = r.NewIntroducedSince(ctx, userID, DayStart(Day(now, loc), loc)); err != nil {
		return Plan{}, err
	}
	if p.Suspended, err = r.Suspended(ctx, userID); err != nil {
		return Plan{}, err
	}
	p.Queue = BuildQueue(QueueInput{Cards: cards, States: p.States, Now: now, Loc: loc,
		NewLimit: newLimit(p.States), NewToday: p.NewToday, Suspended: p.Suspended})
	return p, nil
}
