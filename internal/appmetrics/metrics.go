// Package appmetrics holds every series Rehearse exports, in the Prometheus text format
// (VictoriaMetrics/metrics writes it): requests by route, method and code, answers, mock
// sessions, simulation runs, the deck, and the Go runtime's and the process's own series.
package appmetrics

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/VictoriaMetrics/metrics"
)

// Metrics is one server's series. It is a set of its own (not the library's default), so tests
// can build many servers side by side.
type Metrics struct {
	set        *metrics.Set
	answers    *metrics.Counter
	simSeconds *metrics.PrometheusHistogram
	started    *metrics.Counter // mock sessions, by event
	finished   *metrics.Counter

	// series keeps each request series once made: its name is built from the labels, which
	// the request path must not do every time. Keys are bounded (routes x methods x codes).
	seriesMu sync.RWMutex
	series   map[requestKey]reqSeries
}

type requestKey struct {
	route, method string
	code          int
}

type reqSeries struct {
	count    *metrics.Counter
	duration *metrics.PrometheusHistogram
}

// requestBuckets are the request-duration histogram's upper bounds, in seconds.
var requestBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}

// New builds the series of one server. cards and reloads are read at scrape time: the cards
// in the deck served, and the deck reloads that succeeded and failed (reloads may be nil when
// the deck never reloads).
func New(cards func() int, reloads func() (ok, failed int64)) *Metrics {
	// TYPE lines, so Prometheus knows the counters and histograms (the library's switch is
	// process-wide, and every set here wants them).
	metrics.ExposeMetadata(true)
	s := metrics.NewSet()
	m := &Metrics{
		set:        s,
		answers:    s.NewCounter("rehearse_answers_recorded_total"),
		simSeconds: s.NewPrometheusHistogramExt("rehearse_simulation_run_seconds", []float64{0.0005, 0.002, 0.008, 0.032, 0.128, 0.512, 2.048, 8.192}),
		// Both event series exist from the start, so rate() works before the first mock.
		finished: s.NewCounter("rehearse_mock_sessions_total" + labels("event", "finished")),
		started:  s.NewCounter("rehearse_mock_sessions_total" + labels("event", "started")),
	}
	s.NewGauge("rehearse_deck_cards", func() float64 { return float64(cards()) })
	// Reloads are counted by the deck holder (SIGHUP reloads never pass through a handler).
	s.RegisterMetricsWriter(func(w io.Writer) {
		var ok, failed int64
		if reloads != nil {
			ok, failed = reloads()
		}
		// One HELP and TYPE for the family: WriteCounterUint64 would repeat them per series,
		// which Prometheus's parser refuses.
		metrics.WriteMetadataIfNeeded(w, "rehearse_deck_reloads_total", "counter")
		fmt.Fprintf(w, "rehearse_deck_reloads_total%s %d\n", labels("result", "failed"), failed)
		fmt.Fprintf(w, "rehearse_deck_reloads_total%s %d\n", labels("result", "ok"), ok)
	})
	return m
}

// labels spells out a label set, values escaped as the text format wants. Pairs come in name
// order, as Prometheus's own client writes them.
func labels(pairs ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(pairs); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(pairs[i])
		b.WriteString(`="`)
		labelEscaper.WriteString(&b, pairs[i+1])
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// AnswerRecorded counts one study rating (the study feature calls it after storing a review).
func (m *Metrics) AnswerRecorded() { m.answers.Inc() }

// MockStarted counts a mock-interview session that began.
func (m *Metrics) MockStarted() { m.started.Inc() }

// MockFinished counts a mock-interview session that was completed and scored.
func (m *Metrics) MockFinished() { m.finished.Inc() }

// SimulationRan records how long one simulation run took.
func (m *Metrics) SimulationRan(d time.Duration) { m.simSeconds.Update(d.Seconds()) }

// ObserveRequest counts one request and its duration; route and method must come from closed
// sets (the router's patterns, the standard methods), so the number of series stays bounded.
func (m *Metrics) ObserveRequest(route, method string, status int, d time.Duration) {
	k := requestKey{route, method, statusLabel(status)}
	m.seriesMu.RLock()
	rs, ok := m.series[k]
	m.seriesMu.RUnlock()
	if !ok {
		rs = reqSeries{
			m.set.GetOrCreateCounter("rehearse_http_requests_total" + labels("code", strconv.Itoa(k.code), "method", method, "route", route)),
			m.set.GetOrCreatePrometheusHistogramExt("rehearse_http_request_duration_seconds"+labels("method", method, "route", route), requestBuckets),
		}
		m.seriesMu.Lock()
		if m.series == nil {
			m.series = map[requestKey]reqSeries{}
		}
		m.series[k] = rs
		m.seriesMu.Unlock()
	}
	rs.count.Inc()
	rs.duration.Update(d.Seconds())
}

// Write puts every series in w: this server's, then the Go runtime's and the process's (with
// its open and allowed file descriptors, as Prometheus's client had them).
func (m *Metrics) Write(w io.Writer) {
	m.set.WritePrometheus(w)
	metrics.WriteProcessMetrics(w)
	metrics.WriteFDMetrics(w)
}

// Handler serves the series.
func (m *Metrics) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		m.Write(&b)
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(b.Bytes())
	})
}

// statusLabel keeps the code label to real HTTP status codes (100-599); 0 is a handler that
// wrote nothing, which net/http answers with 200.
func statusLabel(status int) int {
	switch {
	case status == 0:
		return http.StatusOK
	case status < 100 || status > 599:
		return 0
	}
	return status
}
