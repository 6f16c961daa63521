package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/simrun"
)

// The API's memory is bounded at each stage: a run holds a slot (simMaxParallel), encoding holds
// a slot too (so cached results cannot be encoded without limit), a body is at most
// simMaxResponse, and the bodies being written to clients share simOutBytes.
const (
	simMaxResponse = 4 << 20  // a full result larger than this is refused: ask for the summary
	simOutBytes    = 16 << 20 // encoded bodies in flight across all API requests
)

// simAPI runs a JSON scenario, the same contract as `rehearse sim`. ?view=summary returns the
// metrics and the rounds without the per-item timeline, for runs too big to send in full.
func (s *Server) simAPI(w http.ResponseWriter, r *http.Request) {
	summary := false
	switch v := r.URL.Query().Get("view"); v {
	case "", "full":
	case "summary":
		summary = true
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "view must be full or summary, not " + strconv.Quote(cut(v, 20)), "field": "view"})
		return
	}
	if !jsonBody(w, r) {
		return
	}
	body := http.MaxBytesReader(w, r.Body, simAPIMaxBody)
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(body); err != nil {
		if _, tooBig := errors.AsType[*http.MaxBytesError](err); tooBig {
			writeJSON(w, http.StatusRequestEntityTooLarge, map[string]string{"error": fmt.Sprintf("the scenario is larger than %d KiB", simAPIMaxBody>>10)})
			return
		}
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "could not read the request body"})
		return
	}
	sc, err := rebalance.Decode(&buf, s.sim.Web)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, fieldJSON(err))
		return
	}
	out, err := s.sim.Encode(r.Context(), sc, summary, simMaxResponse)
	if errors.Is(err, simrun.ErrTooLarge) {
		err = errStatus(http.StatusUnprocessableEntity, fmt.Sprintf(
			"The full result is larger than the API's %d MB. Ask for ?view=summary (metrics and rounds, no timeline), or shrink duration_ms, members or partitions.", simMaxResponse>>20))
	}
	if err == nil {
		s.writeSimBody(w, r, out)
		return
	}
	if he, ok := errors.AsType[*httpError](simHTTPError(err)); ok {
		writeJSON(w, he.status, map[string]string{"error": he.msg})
		return
	}
	s.fail(w, r, err)
}

// writeSimBody sends an encoded result once its bytes fit in the shared budget for bodies in flight.
func (s *Server) writeSimBody(w http.ResponseWriter, r *http.Request, out []byte) {
	if err := s.sim.out.Acquire(r.Context(), int64(len(out))); err != nil {
		return // the client went away while waiting
	}
	defer s.sim.out.Release(int64(len(out)))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(out)
}

// fieldJSON is the API's error body: the message, and the field when the engine named one.
func fieldJSON(err error) map[string]string {
	if fe, ok := errors.AsType[*rebalance.FieldError](err); ok {
		return map[string]string{"error": fe.Error(), "field": fe.Field}
	}
	return map[string]string{"error": err.Error()}
}
