package server

import (
	"bytes"
	"encoding/json"
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
	out, err := s.simBody(r, sc, summary)
	if err == nil {
		s.writeSimBody(w, r, out)
		return
	}
	if he, ok := errors.AsType[*httpError](err); ok {
		writeJSON(w, he.status, map[string]string{"error": he.msg})
		return
	}
	s.fail(w, r, err)
}

// simBody runs (or finds) the result and encodes it within one slot and the response cap, so
// no result is held in memory without a slot: requests beyond the slots wait holding nothing.
func (s *Server) simBody(r *http.Request, sc rebalance.Scenario, summary bool) ([]byte, error) {
	if err := s.acquireSim(r.Context()); err != nil {
		return nil, err
	}
	defer s.releaseSim()
	res, err := s.simResult(r.Context(), sc, s.sim.Web, true)
	if err != nil {
		return nil, err
	}
	lw := &limitedBuffer{max: simMaxResponse}
	var v any = res
	if summary {
		v = summarize(res)
	} else {
		lw.b.Grow(min(simMaxResponse, simrun.ResultBytes(res)+64<<10)) // JSON is about as big as the result in memory
	}
	if err := encodeStreaming(lw, v); err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, errStatus(http.StatusUnprocessableEntity, fmt.Sprintf(
				"The full result is larger than the API's %d MB. Ask for ?view=summary (metrics and rounds, no timeline), or shrink duration_ms, members or partitions.", simMaxResponse>>20))
		}
		return nil, err
	}
	return lw.b.Bytes(), nil
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

// simSummary is a result without the per-item timeline and the rounds' item lists.
type simSummary struct {
	Summary           bool              `json:"summary"`
	Rounds            []simRoundSummary `json:"rounds"`
	Metrics           rebalance.Metrics `json:"metrics"`
	Events            int               `json:"events"`
	Members           []string          `json:"members"`
	Items             int               `json:"items"`
	DurationMS        int64             `json:"duration_ms"`
	Truncated         bool              `json:"truncated,omitempty"`
	TruncatedAtMS     int64             `json:"truncated_at_ms,omitempty"`
	InvariantFailures []string          `json:"invariant_failures,omitempty"`
}

type simRoundSummary struct {
	Generation   int    `json:"generation"`
	Trigger      string `json:"trigger"`
	StartMS      int64  `json:"start_ms"`
	EndMS        int64  `json:"end_ms"`
	StopTheWorld bool   `json:"stop_the_world"`
	Revoked      int    `json:"revoked"` // items revoked in the round, over all members
	Added        int    `json:"added"`
}

func summarize(r *rebalance.Result) simSummary {
	out := simSummary{Summary: true, Metrics: r.Metrics, Events: len(r.Events), Members: r.Members, Items: len(r.Items),
		DurationMS: r.DurationMS, Truncated: r.Truncated, TruncatedAtMS: r.TruncatedAtMS, InvariantFailures: r.InvariantFailures}
	for _, rd := range r.Rounds {
		rs := simRoundSummary{Generation: rd.Generation, Trigger: rd.Trigger, StartMS: rd.StartMS, EndMS: rd.EndMS, StopTheWorld: rd.StopTheWorld}
		for _, l := range rd.Revoked {
			rs.Revoked += len(l)
		}
		for _, l := range rd.Added {
			rs.Added += len(l)
		}
		out.Rounds = append(out.Rounds, rs)
	}
	return out
}

var errTooLarge = errors.New("response over its cap")

// limitedBuffer is a buffer that refuses to grow past max.
type limitedBuffer struct {
	b   bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if l.b.Len()+len(p) > l.max {
		return 0, errTooLarge
	}
	return l.b.Write(p)
}

// encodeStreaming writes v as JSON, one element at a time for a Result's big lists, so a
// result over the cap is refused after at most one element past it instead of after encoding
// all of it. Its output equals json.Marshal's (a test checks it).
func encodeStreaming(w *limitedBuffer, v any) error {
	res, ok := v.(*rebalance.Result)
	if !ok {
		return writeValue(w, v)
	}
	var err error
	field := func(name string, first bool) {
		if err != nil {
			return
		}
		if !first {
			_, err = w.Write([]byte{','})
		}
		if err == nil {
			_, err = fmt.Fprintf(w, "%q:", name)
		}
	}
	value := func(x any) {
		if err == nil {
			err = writeValue(w, x)
		}
	}
	if _, err = w.Write([]byte{'{'}); err != nil {
		return err
	}
	field("rounds", true)
	if err == nil {
		err = writeList(w, res.Rounds)
	}
	field("timeline", false)
	if err == nil {
		err = writeList(w, res.Timeline)
	}
	field("metrics", false)
	value(res.Metrics)
	field("events", false)
	if err == nil {
		err = writeList(w, res.Events)
	}
	field("members", false)
	value(res.Members)
	field("items", false)
	value(res.Items)
	field("duration_ms", false)
	value(res.DurationMS)
	if res.ProcessingMS != 0 {
		field("processing_ms", false)
		value(res.ProcessingMS)
	}
	if res.Truncated {
		field("truncated", false)
		value(true)
	}
	if res.TruncatedAtMS != 0 {
		field("truncated_at_ms", false)
		value(res.TruncatedAtMS)
	}
	if len(res.InvariantFailures) > 0 {
		field("invariant_failures", false)
		value(res.InvariantFailures)
	}
	if err == nil {
		_, err = w.Write([]byte{'}'})
	}
	return err
}

func writeList[T any](w *limitedBuffer, list []T) error {
	if list == nil {
		_, err := w.Write([]byte("null"))
		return err
	}
	if _, err := w.Write([]byte{'['}); err != nil {
		return err
	}
	for i := range list {
		if i > 0 {
			if _, err := w.Write([]byte{','}); err != nil {
				return err
			}
		}
		if err := writeValue(w, list[i]); err != nil {
			return err
		}
	}
	_, err := w.Write([]byte{']'})
	return err
}

func writeValue(w *limitedBuffer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
