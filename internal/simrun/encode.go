package simrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// Encode runs (or finds) sc's result within the web bound and encodes it as JSON, whole or
// summarized, within one slot and max bytes, so no result is held in memory without a slot:
// callers beyond the slots wait holding nothing. ErrTooLarge: the body would pass max.
func (r *Runner) Encode(ctx context.Context, sc rebalance.Scenario, summary bool, max int) ([]byte, error) {
	if err := r.Acquire(ctx); err != nil {
		return nil, err
	}
	defer r.Release()
	res, err := r.Result(ctx, sc, r.Web, true)
	if err != nil {
		return nil, err
	}
	lw := &LimitedBuffer{Max: max}
	var v any = res
	if summary {
		v = Summarize(res)
	} else {
		lw.B.Grow(min(max, ResultBytes(res)+64<<10)) // JSON is about as big as the result in memory
	}
	if err := EncodeStreaming(lw, v); err != nil {
		return nil, err
	}
	return lw.B.Bytes(), nil
}

// Summary is a result without the per-item timeline and the rounds' item lists.
type Summary struct {
	Summary           bool              `json:"summary"`
	Rounds            []RoundSummary    `json:"rounds"`
	Metrics           rebalance.Metrics `json:"metrics"`
	Events            int               `json:"events"`
	Members           []string          `json:"members"`
	Items             int               `json:"items"`
	DurationMS        int64             `json:"duration_ms"`
	Truncated         bool              `json:"truncated,omitempty"`
	TruncatedAtMS     int64             `json:"truncated_at_ms,omitempty"`
	InvariantFailures []string          `json:"invariant_failures,omitempty"`
}

type RoundSummary struct {
	Generation   int    `json:"generation"`
	Trigger      string `json:"trigger"`
	StartMS      int64  `json:"start_ms"`
	EndMS        int64  `json:"end_ms"`
	StopTheWorld bool   `json:"stop_the_world"`
	Revoked      int    `json:"revoked"` // items revoked in the round, over all members
	Added        int    `json:"added"`
}

// Summarize drops the timeline and the rounds' item lists from a result.
func Summarize(r *rebalance.Result) Summary {
	out := Summary{Summary: true, Metrics: r.Metrics, Events: len(r.Events), Members: r.Members, Items: len(r.Items),
		DurationMS: r.DurationMS, Truncated: r.Truncated, TruncatedAtMS: r.TruncatedAtMS, InvariantFailures: r.InvariantFailures}
	for _, rd := range r.Rounds {
		rs := RoundSummary{Generation: rd.Generation, Trigger: rd.Trigger, StartMS: rd.StartMS, EndMS: rd.EndMS, StopTheWorld: rd.StopTheWorld}
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

// ErrTooLarge: the encoding would pass its buffer's cap.
var ErrTooLarge = errors.New("response over its cap")

// LimitedBuffer is a buffer that refuses to grow past max.
type LimitedBuffer struct {
	B   bytes.Buffer
	Max int
}

func (l *LimitedBuffer) Write(p []byte) (int, error) {
	if l.B.Len()+len(p) > l.Max {
		return 0, ErrTooLarge
	}
	return l.B.Write(p)
}

// EncodeStreaming writes v as JSON, one element at a time for a Result's big lists, so a
// result over the cap is refused after at most one element past it instead of after encoding
// all of it. Its output equals json.Marshal's (a test checks it).
func EncodeStreaming(w *LimitedBuffer, v any) error {
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

func writeList[T any](w *LimitedBuffer, list []T) error {
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

func writeValue(w *LimitedBuffer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
