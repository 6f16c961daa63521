package account

import (
	"context"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
)

// Scheduler is FSRS with the user's desired retention, fitted weights and interview date (its
// day starting in loc, the user's zone).
func Scheduler(st store.Settings, loc *time.Location) srs.Scheduler {
	sc := srs.DefaultScheduler()
	if r := st.DesiredRetention; r > 0 && r < 1 {
		sc.DesiredRetention = r
	}
	sc.Params, _ = store.DecodeParams(st.FSRSParams)
	if d, ok := InterviewDay(st); ok {
		sc.Deadline = study.DayStart(d, loc)
		sc.DeadlineWindow = srs.DefaultDeadlineWindow
	}
	return sc
}

// InterviewDay is the user's interview date as a study day (midnight UTC of the date).
func InterviewDay(st store.Settings) (time.Time, bool) {
	if st.InterviewDate == "" {
		return time.Time{}, false
	}
	d, err := time.Parse(time.DateOnly, st.InterviewDate)
	return d, err == nil
}

// Countdown is the interview date's plan on the study day today over the whole deck; ok is
// false without a date or once it has passed.
func Countdown(st store.Settings, cards []*deck.Card, states srs.States, today time.Time) (study.Countdown, bool) {
	d, ok := InterviewDay(st)
	if !ok {
		return study.Countdown{}, false
	}
	unseen := 0
	for _, c := range cards {
		if st, ok := states.Get(c.ID); !ok || st.State == srs.New {
			unseen++
		}
	}
	return study.CountdownFor(d, today, unseen, st.NewPerDay)
}

// DuePuller moves a user's due dates (the store implements it).
type DuePuller interface {
	PullInDue(ctx context.Context, userID int64, deadline time.Time, pick func(id string, c srs.Card) time.Time) (int, error)
}

// PullInForDate moves the user's review cards due after their interview date (in sc, their
// scheduler) into the days before it.
func PullInForDate(ctx context.Context, db DuePuller, userID int64, sc srs.Scheduler, now time.Time) error {
	if sc.Deadline.IsZero() {
		return nil
	}
	_, err := db.PullInDue(ctx, userID, sc.Deadline, func(id string, c srs.Card) time.Time {
		due, _ := sc.PullIn(id, c, now)
		return due
	})
	return err
}
