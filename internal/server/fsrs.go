package server

import (
	"context"
	"errors"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
)

// Bounds of "Fit to my reviews".
const (
	// fitMinScored is the history a fit needs: answers given a day or more after the card's
	// previous one, the only ones FSRS predicts. 21 weights fitted to fewer answers learn their
	// noise: in simulations (README, "Fitting the scheduler") fits of 300-500 such answers
	// predicted unseen answers up to 4 % worse than the defaults, while from about 1,000 on
	// they were 2-12 % better for learners unlike the defaults.
	fitMinScored = 1000
	// fitHoldOut: one card in fitHoldOut is kept out of the fit and judges it.
	fitHoldOut = 5
	// fitMaxReviews caps the answers read: the latest ones, about 10 s of one core.
	fitMaxReviews = 100_000
	// fitTimeout stops a fit that runs long on a busy machine; fitStale is when a "running"
	// row left by a restart stops blocking the next request.
	fitTimeout = 2 * time.Minute
	fitStale   = 5 * time.Minute
)

// fitSlots lets one fit run at a time on the whole instance: it is CPU-bound, and users'
// requests come first.
var fitSlots = make(chan struct{}, 1)

// userScheduler is FSRS with the user's desired retention, fitted weights and interview date.
func userScheduler(u *store.User) srs.Scheduler {
	sc := srs.DefaultScheduler()
	if r := u.Settings.DesiredRetention; r > 0 && r < 1 {
		sc.DesiredRetention = r
	}
	sc.Params, _ = store.DecodeParams(u.Settings.FSRSParams)
	if d, ok := interviewDay(u); ok {
		sc.Deadline = study.DayStart(d, userLocation(u))
		sc.DeadlineWindow = srs.DefaultDeadlineWindow
	}
	return sc
}

// interviewDay is the user's interview date as a study day (midnight UTC of the date).
func interviewDay(u *store.User) (time.Time, bool) {
	if u.Settings.InterviewDate == "" {
		return time.Time{}, false
	}
	d, err := time.Parse(time.DateOnly, u.Settings.InterviewDate)
	return d, err == nil
}

// countdown is the interview date's plan today over the whole deck; ok is false without a
// date or once it has passed.
func countdown(u *store.User, cards []*deck.Card, states srs.States, now time.Time) (study.Countdown, bool) {
	d, ok := interviewDay(u)
	if !ok {
		return study.Countdown{}, false
	}
	unseen := 0
	for _, c := range cards {
		if st, ok := states.Get(c.ID); !ok || st.State == srs.New {
			unseen++
		}
	}
	return study.CountdownFor(d, study.Day(now, userLocation(u)), unseen, u.Settings.NewPerDay)
}

// newLimit is the user's new cards per day, raised before an interview date so that every
// card is seen a few days before it.
func (s *Server) newLimit(u *store.User, states srs.States, now time.Time) int {
	if c, ok := countdown(u, s.deck().Cards, states, now); ok {
		return c.PerDay
	}
	return u.Settings.NewPerDay
}

// pullInForDate moves the user's review cards due after a newly set interview date into the
// days before it.
func (s *Server) pullInForDate(ctx context.Context, u *store.User) error {
	sc := userScheduler(u)
	if sc.Deadline.IsZero() {
		return nil
	}
	now := s.now()
	_, err := s.db.PullInDue(ctx, u.ID, sc.Deadline, func(id string, c srs.Card) time.Time {
		due, _ := sc.PullIn(id, c, now)
		return due
	})
	return err
}

// startFit runs a fit of the user's weights in the background; ErrConflict when one is
// running already.
func (s *Server) startFit(ctx context.Context, u *store.User) error {
	if err := s.db.StartFit(ctx, u.ID, s.now(), fitStale); err != nil {
		return err
	}
	go s.runFit(u.ID, u.Settings.FSRSParams)
	return nil
}

// runFit fits and records the outcome. The fit learns from four cards in five and is judged on
// the answers of the fifth, which it has not seen: applied when it predicts them better than
// the weights in use, kept otherwise (a learner close to the defaults gains nothing from noise).
func (s *Server) runFit(userID int64, current string) {
	ctx, cancel := context.WithTimeout(context.Background(), fitTimeout)
	defer cancel()
	f := store.Fit{Status: store.FitFailed}
	var params [21]float64
	defer func() {
		f.FinishedAt = s.now()
		if err := s.db.FinishFit(context.Background(), userID, f, params); err != nil {
			s.log.Error("fsrs fit: recording the outcome", "user", userID, "err", err)
		}
	}()
	select {
	case fitSlots <- struct{}{}:
		defer func() { <-fitSlots }()
	case <-ctx.Done():
		f.Message = "The server was busy with other fits; try again in a minute."
		return
	}
	history, err := s.db.FitHistory(ctx, userID, fitMaxReviews)
	if err != nil {
		s.log.Error("fsrs fit: reading the history", "user", userID, "err", err)
		f.Message = "Your review history could not be read."
		return
	}
	train, held := srs.SplitByCard(history, fitHoldOut)
	res, err := srs.Fit(ctx, train, srs.FitOptions{Workers: 1})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		f.Message = "The fit took too long and was stopped; your weights are unchanged."
		return
	case err != nil:
		f.Message = "The fit failed: " + err.Error()
		return
	}
	inUse, _ := store.DecodeParams(current)
	before, _, errB := srs.LogLoss(inUse, held)
	after, _, errA := srs.LogLoss(res.Params, held)
	if errB != nil || errA != nil {
		f.Message = "Too few of your cards have answers on two different days to judge a fit."
		return
	}
	f.Reviews, f.Scored, f.LossBefore, f.LossAfter = len(history), res.Scored, before, after
	f.Status = store.FitKept
	if after < before {
		f.Status = store.FitApplied
		params = res.Params
	}
}
