package server

import (
	"errors"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
)

// userScheduler is FSRS with the user's settings, in their zone (account.Scheduler).
func userScheduler(u *store.User) srs.Scheduler {
	return account.Scheduler(u.Settings, userLocation(u))
}

// countdown is the interview date's plan today over the whole deck (account.Countdown).
func countdown(u *store.User, cards []*deck.Card, states srs.States, now time.Time) (study.Countdown, bool) {
	return account.Countdown(u.Settings, cards, states, study.Day(now, userLocation(u)))
}

// newLimit is the user's new cards per day, raised before an interview date so that every
// card is seen a few days before it.
func (s *Server) newLimit(u *store.User, states srs.States, now time.Time) int {
	if c, ok := countdown(u, s.deck().Cards, states, now); ok {
		return c.PerDay
	}
	return u.Settings.NewPerDay
}

// fitter runs "Fit to my reviews" (account.Fitter).
func (s *Server) fitter() account.Fitter {
	return account.Fitter{DB: s.db, Now: s.now, Log: s.log}
}

func (s *Server) fitPost(w http.ResponseWriter, r *http.Request) {
	var few account.TooFewError
	switch err := s.fitter().Start(r.Context(), userFrom(r.Context())); {
	case errors.As(err, &few):
		http.Error(w, few.Error(), http.StatusConflict)
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
