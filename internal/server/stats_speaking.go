package server

import (
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/mockview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/views"
)

// mockTrendN is how many recent mock interviews the progress page shows.
const mockTrendN = 12

// speaking measures the user's recordings and mock interviews for the progress page.
func (s *Server) speaking(r *http.Request, states srs.States, now time.Time, loc *time.Location) (views.SpeakingView, error) {
	ctx, u := r.Context(), userFrom(r.Context())
	in := mockview.Speech{Deck: s.deck(), States: states, Scheduler: scheduler(u)}
	var err error
	if in.Recordings, err = s.db.UserRecordings(ctx, u.ID); err != nil {
		return views.SpeakingView{}, err
	}
	if in.Sessions, err = s.db.MockHistory(ctx, u.ID, mockTrendN, now); err != nil {
		return views.SpeakingView{}, err
	}
	if in.Rows, err = s.mockRows(ctx, in.Sessions...); err != nil {
		return views.SpeakingView{}, err
	}
	return mockview.Speaking(in, now, loc), nil
}
