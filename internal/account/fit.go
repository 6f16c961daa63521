package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Bounds of "Fit to my reviews".
const (
	// FitMinScored is the history a fit needs: answers given a day or more after the card's
	// previous one, the only ones FSRS predicts. 21 weights fitted to fewer answers learn their
	// noise: in simulations (README, "Fitting the scheduler") fits of 300-500 such answers
	// predicted unseen answers up to 4 % worse than the defaults, while from about 1,000 on
	// they were 2-12 % better for learners unlike the defaults.
	FitMinScored = 1000
	// fitHoldOut: one card in fitHoldOut is kept out of the fit and judges it.
	fitHoldOut = 5
	// fitMaxReviews caps the answers read: the latest ones, about 10 s of one core.
	fitMaxReviews = 100_000
	// fitTimeout stops a fit that runs long on a busy machine; fitStale is when a "running"
	// row left by a restart stops blocking the next request.
	fitTimeout = 2 * time.Minute
	fitStale   = 5 * time.Minute
)

// fitSlots lets one fit run at a time in the process: it is CPU-bound, and users' requests
// come first.
var fitSlots = make(chan struct{}, 1)

// FitStore is what fitting reads and records (the store implements it).
type FitStore interface {
	StartFit(ctx context.Context, userID int64, now time.Time, stale time.Duration) error
	FitHistory(ctx context.Context, userID int64, limit int) ([]srs.Answer, error)
	FinishFit(ctx context.Context, userID int64, f store.Fit, params [21]float64) error
	FitScoredCount(ctx context.Context, userID int64, limit int) (int, error)
	LastFit(ctx context.Context, userID int64) (store.Fit, error)
}

// Fitter fits users' FSRS weights to their reviews, in the background.
type Fitter struct {
	DB  FitStore
	Now func() time.Time
	Log *slog.Logger
}

// TooFewError: the user has fewer answers than a fit needs (FitMinScored).
type TooFewError struct{ Have int }

func (e TooFewError) Error() string {
	return fmt.Sprintf("A fit needs %d answers given a day or more after the card's previous one; you have %d.", FitMinScored, e.Have)
}

// Start runs a fit of u's weights in the background: a TooFewError without the history a fit
// needs, store.ErrConflict when one is running already.
func (f Fitter) Start(ctx context.Context, u *store.User) error {
	n, err := f.DB.FitScoredCount(ctx, u.ID, FitMinScored)
	if err != nil {
		return err
	}
	if n < FitMinScored {
		return TooFewError{Have: n}
	}
	if err := f.DB.StartFit(ctx, u.ID, f.Now(), fitStale); err != nil {
		return err
	}
	go f.run(u.ID, u.Settings.FSRSParams)
	return nil
}

// run fits and records the outcome. The fit learns from four cards in five and is judged on
// the answers of the fifth, which it has not seen: applied when it predicts them better than
// the weights in use, kept otherwise (a learner close to the defaults gains nothing from noise).
func (f Fitter) run(userID int64, current string) {
	ctx, cancel := context.WithTimeout(context.Background(), fitTimeout)
	defer cancel()
	out := store.Fit{Status: store.FitFailed}
	var params [21]float64
	defer func() {
		out.FinishedAt = f.Now()
		if err := f.DB.FinishFit(context.Background(), userID, out, params); err != nil {
			f.Log.Error("fsrs fit: recording the outcome", "user", userID, "err", err)
		}
	}()
	select {
	case fitSlots <- struct{}{}:
		defer func() { <-fitSlots }()
	case <-ctx.Done():
		out.Message = "The server was busy with other fits; try again in a minute."
		return
	}
	history, err := f.DB.FitHistory(ctx, userID, fitMaxReviews)
	if err != nil {
		f.Log.Error("fsrs fit: reading the history", "user", userID, "err", err)
		out.Message = "Your review history could not be read."
		return
	}
	train, held := srs.SplitByCard(history, fitHoldOut)
	res, err := srs.Fit(ctx, train, srs.FitOptions{Workers: 1})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		out.Message = "The fit took too long and was stopped; your weights are unchanged."
		return
	case err != nil:
		out.Message = "The fit failed: " + err.Error()
		return
	}
	inUse, _ := store.DecodeParams(current)
	before, _, errB := srs.LogLoss(inUse, held)
	after, _, errA := srs.LogLoss(res.Params, held)
	if errB != nil || errA != nil {
		out.Message = "Too few of your cards have answers on two different days to judge a fit."
		return
	}
	out.Reviews, out.Scored, out.LossBefore, out.LossAfter = len(history), res.Scored, before, after
	out.Status = store.FitKept
	if after < before {
		out.Status = store.FitApplied
		params = res.Params
	}
}

// View is what the settings page shows of "Fit to my reviews", times in loc (u's zone).
func (f Fitter) View(ctx context.Context, u *store.User, loc *time.Location) (views.FitView, error) {
	v := views.FitView{Needed: FitMinScored, Personal: u.Settings.FSRSParams != ""}
	n, err := f.DB.FitScoredCount(ctx, u.ID, FitMinScored)
	if err != nil {
		return v, err
	}
	v.Scored = n
	last, err := f.DB.LastFit(ctx, u.ID)
	if errors.Is(err, store.ErrNotFound) {
		return v, nil
	}
	if err != nil {
		return v, err
	}
	v.Status = last.Status
	if last.Status == store.FitRunning && f.Now().Sub(last.StartedAt) > fitStale {
		v.Status, last.Message = store.FitFailed, "The last fit was interrupted (the server restarted); try again."
	}
	switch v.Status {
	case store.FitRunning:
		v.Summary = "Fitting since " + last.StartedAt.In(loc).Format("15:04") + ". It takes up to a minute; reload this page to see the result."
	case store.FitApplied, store.FitKept:
		gain := 100 * (last.LossBefore - last.LossAfter) / last.LossBefore
		v.Summary = fmt.Sprintf("Fitted %s to %s of your answers. On the cards set aside to judge it, its log loss is %.4f against %.4f for the weights before",
			last.FinishedAt.In(loc).Format("2 Jan 15:04"), views.Thousands(last.Reviews), last.LossAfter, last.LossBefore)
		if v.Status == store.FitApplied {
			v.Summary += fmt.Sprintf(" (%.1f %% better): the fitted weights are in use.", gain)
		} else {
			v.Summary += ": no better, so your weights are unchanged."
		}
	case store.FitFailed:
		v.Summary = last.Message
	}
	return v, nil
}
