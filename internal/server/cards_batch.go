package server

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/rehearse/rehearse/internal/cardwrite"
)

// batchRequest is POST /api/cards: cards to write and ids to remove, applied together.
type batchRequest struct {
	Put    []cardwrite.Put `json:"put"`
	Delete []string        `json:"delete"`
}

// apiBatch is POST /api/cards: every card is checked alone and then the deck with all the
// changes at once, so cards that link to each other can arrive together; nothing is stored
// unless everything passes (422 with every problem otherwise). `rehearse deck push` uses it.
func (s *Server) apiBatch(w http.ResponseWriter, r *http.Request) {
	if s.apiEditable(w, r) == nil || !jsonBody(w, r) {
		return
	}
	var req batchRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		if isTooBig(err) {
			apiFail(w, http.StatusRequestEntityTooLarge, "the batch is over %d KiB: send the cards in smaller batches", maxBody>>10)
			return
		}
		apiFail(w, http.StatusBadRequest, `the body must be JSON {"put": [{"path", "markdown"}], "delete": [ids]}: %v`, err)
		return
	}
	u := userFrom(r.Context())
	res, problems, err := s.cards.Batch(r.Context(), u.ID, req.Put, req.Delete)
	switch {
	case errors.Is(err, cardwrite.ErrNotEditable):
		apiFail(w, http.StatusConflict, "%v", err)
	case err != nil:
		s.fail(w, r, err)
	case len(problems) > 0:
		writeProblems(w, problems)
	default:
		if res.Changed() {
			s.log.InfoContext(r.Context(), "cards changed via API batch", "created", len(res.Created), "updated", len(res.Updated),
				"deleted", len(res.Deleted), "reverted", len(res.Reverted), "by", u.Username)
		}
		writeJSON(w, http.StatusOK, res)
	}
}
