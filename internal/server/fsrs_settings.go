package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

// maxInterviewAhead bounds the interview date: further out it would change nothing for years.
const maxInterviewAhead = 3 * 365

// parseInterviewDate validates the optional interview date into st; "" removes it. A date
// before today is refused: a past date would mean nothing.
func parseInterviewDate(v string, st *store.Settings, now time.Time, fe *views.FormError) *views.FormError {
	if v == "" {
		st.InterviewDate = ""
		return fe
	}
	msg := ""
	d, err := time.Parse(time.DateOnly, v)
	loc := userLocationName(st.TimeZone)
	today := study.Day(now, loc)
	switch {
	case err != nil:
		msg = "Enter the date as YYYY-MM-DD, or leave it empty."
	case d.Before(today):
		msg = "Choose today or a later date; clear the field to remove the date."
	case d.After(today.AddDate(0, 0, maxInterviewAhead)):
		msg = "Choose a date within three years."
	default:
		st.InterviewDate = d.Format(time.DateOnly)
		return fe
	}
	if fe == nil {
		fe = &views.FormError{Form: "Please correct the fields marked below.", Fields: map[string]string{}}
	}
	fe.Fields["interview_date"] = msg
	return fe
}

// userLocationName is the zone named in settings, UTC when unknown.
func userLocationName(name string) *time.Location {
	return userLocation(&store.User{Settings: store.Settings{TimeZone: name}})
}

// fitView is what the settings page shows of "Fit to my reviews".
func (s *Server) fitView(ctx context.Context, u *store.User) (views.FitView, error) {
	v := views.FitView{Needed: fitMinScored, Personal: u.Settings.FSRSParams != ""}
	n, err := s.db.FitScoredCount(ctx, u.ID, fitMinScored)
	if err != nil {
		return v, err
	}
	v.Scored = n
	f, err := s.db.LastFit(ctx, u.ID)
	if errors.Is(err, store.ErrNotFound) {
		return v, nil
	}
	if err != nil {
		return v, err
	}
	v.Status = f.Status
	if f.Status == store.FitRunning && s.now().Sub(f.StartedAt) > fitStale {
		v.Status, f.Message = store.FitFailed, "The last fit was interrupted (the server restarted); try again."
	}
	loc := userLocation(u)
	switch v.Status {
	case store.FitRunning:
		v.Summary = "Fitting since " + f.StartedAt.In(loc).Format("15:04") + ". It takes up to a minute; reload this page to see the result."
	case store.FitApplied, store.FitKept:
		gain := 100 * (f.LossBefore - f.LossAfter) / f.LossBefore
		v.Summary = fmt.Sprintf("Fitted %s to %s of your answers. On the cards set aside to judge it, its log loss is %.4f against %.4f for the weights before",
			f.FinishedAt.In(loc).Format("2 Jan 15:04"), views.Thousands(f.Reviews), f.LossAfter, f.LossBefore)
		if v.Status == store.FitApplied {
			v.Summary += fmt.Sprintf(" (%.1f %% better): the fitted weights are in use.", gain)
		} else {
			v.Summary += ": no better, so your weights are unchanged."
		}
	case store.FitFailed:
		v.Summary = f.Message
	}
	return v, nil
}

func (s *Server) fitPost(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	v, err := s.fitView(r.Context(), u)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if v.Scored < v.Needed {
		http.Error(w, fmt.Sprintf("A fit needs %d answers given a day or more after the card's previous one; you have %d.", v.Needed, v.Scored), http.StatusConflict)
		return
	}
	switch err := s.startFit(r.Context(), u); {
	case errors.Is(err, store.ErrConflict):
		http.Redirect(w, r, "/settings?fit=running#fit", http.StatusSeeOther)
	case err != nil:
		s.fail(w, r, err)
	default:
		http.Redirect(w, r, "/settings?fit=started#fit", http.StatusSeeOther)
	}
}

func (s *Server) fitRevert(w http.ResponseWriter, r *http.Request) {
	if err := s.db.RevertFit(r.Context(), userFrom(r.Context()).ID); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/settings?fit=reverted#fit", http.StatusSeeOther)
}
