package appmetrics

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// The exposition is written by a library that is not Prometheus's own client: Prometheus's
// parser must take all of it, each family typed, with the values the server counted.
func TestMetricsParseAsPrometheusText(t *testing.T) {
	t.Parallel()
	m := New(func() int { return 42 }, func() (int64, int64) { return 3, 1 })
	m.ObserveRequest("/cards/{id}", http.MethodGet, http.StatusOK, 3*time.Millisecond)
	m.ObserveRequest("/cards/{id}", http.MethodGet, http.StatusOK, 30*time.Millisecond)
	m.ObserveRequest(`/odd"route\`, "OTHER", 0, time.Millisecond) // escaped, and 0 counted as 200
	m.AnswerRecorded()
	m.MockStarted()
	m.SimulationRan(time.Millisecond)
	var b bytes.Buffer
	m.Write(&b)
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(&b)
	if err != nil {
		t.Fatalf("Prometheus's parser refuses the exposition: %v", err)
	}
	types := map[string]string{
		"rehearse_http_requests_total": "COUNTER", "rehearse_http_request_duration_seconds": "HISTOGRAM",
		"rehearse_answers_recorded_total": "COUNTER", "rehearse_mock_sessions_total": "COUNTER",
		"rehearse_deck_cards": "GAUGE", "rehearse_deck_reloads_total": "COUNTER",
		"rehearse_simulation_run_seconds": "HISTOGRAM", "go_goroutines": "GAUGE", "process_resident_memory_bytes": "GAUGE",
		"process_open_fds": "GAUGE",
	}
	for name, typ := range types {
		f, ok := fams[name]
		if !ok {
			t.Errorf("no family %s", name)
			continue
		}
		if got := f.GetType().String(); got != typ {
			t.Errorf("%s is a %s, want %s", name, got, typ)
		}
	}
	cards := map[string]float64{}
	for _, s := range fams["rehearse_http_requests_total"].GetMetric() {
		lv := map[string]string{}
		for _, l := range s.GetLabel() {
			lv[l.GetName()] = l.GetValue()
		}
		cards[lv["route"]+" "+lv["method"]+" "+lv["code"]] = s.GetCounter().GetValue()
	}
	if cards["/cards/{id} GET 200"] != 2 || cards[`/odd"route\ OTHER 200`] != 1 {
		t.Errorf("request counts by route, method and code: %v", cards)
	}
	for _, s := range fams["rehearse_http_request_duration_seconds"].GetMetric() {
		if h := s.GetHistogram(); s.GetLabel()[1].GetValue() == "/cards/{id}" && (h.GetSampleCount() != 2 || h.GetSampleSum() < 0.032 || h.GetSampleSum() > 0.034) {
			t.Errorf("card page durations: %d samples summing to %g s, want 2 and 0.033", h.GetSampleCount(), h.GetSampleSum())
		}
	}
	if v := fams["rehearse_answers_recorded_total"].GetMetric()[0].GetCounter().GetValue(); v != 1 {
		t.Errorf("answers recorded %g, want 1", v)
	}
	if v := fams["rehearse_deck_cards"].GetMetric()[0].GetGauge().GetValue(); v != 42 {
		t.Errorf("deck cards %g, want 42", v)
	}
	reloads := map[string]float64{}
	for _, s := range fams["rehearse_deck_reloads_total"].GetMetric() {
		reloads[s.GetLabel()[0].GetValue()] = s.GetCounter().GetValue()
	}
	if len(reloads) != 2 || reloads["ok"] != 3 || reloads["failed"] != 1 {
		t.Errorf("reload series %v, want ok 3 and failed 1", reloads)
	}
}
