package server

import (
	"context"
	"net/http"

	"github.com/rehearse/rehearse/internal/mockview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// mockRows scores each session's questions with its recordings (mockview.Rows).
func (s *Server) mockRows(ctx context.Context, sessions ...*store.MockSession) ([][]views.MockSummaryRow, error) {
	d, out := s.deck(), make([][]views.MockSummaryRow, len(sessions))
	for i, sess := range sessions {
		recs, err := s.db.MockRecordings(ctx, sess.UserID, sess.ID)
		if err != nil {
			return nil, err
		}
		out[i] = mockview.Rows(d, sess, recs)
	}
	return out, nil
}

func (s *Server) mockSummary(w http.ResponseWriter, r *http.Request) {
	sess, err := s.loadMockSession(r)
	var rows [][]views.MockSummaryRow
	if err == nil {
		rows, err = s.mockRows(r.Context(), sess)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, views.MockSummaryPage(s.mockPage(r, "Mock interview summary"), mockview.Summary(sess, rows[0])))
}

// mockHistoryLimit bounds the history page and its chart.
const mockHistoryLimit = 50

func (s *Server) mockHistory(w http.ResponseWriter, r *http.Request) {
	sessions, err := s.db.MockHistory(r.Context(), userFrom(r.Context()).ID, mockHistoryLimit, s.now())
	var rows [][]views.MockSummaryRow
	if err == nil {
		rows, err = s.mockRows(r.Context(), sessions...)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, views.MockHistoryPage(s.mockPage(r, "Mock interview history"), mockview.History(sessions, rows)))
}
