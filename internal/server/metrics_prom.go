package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// appMetrics is every Prometheus series Rehearse exports. It lives in its own registry (not the
// global default) so tests can build many servers without duplicate-registration panics.
type appMetrics struct {
	reg        *prometheus.Registry
	requests   *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	answers    prometheus.Counter
	mocks      *prometheus.CounterVec
	simSeconds prometheus.Histogram

	// series keeps each request series once looked up: WithLabelValues hashes the labels on
	// every call. Keys are bounded (routes x methods x codes). A typed map, as a sync.Map would
	// box each key to look it up.
	seriesMu sync.RWMutex
	series   map[requestKey]reqSeries
}

type requestKey struct {
	route, method string
	code          int
}

type reqSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

// reloadCounter is what a reloadable deck reports for the reload counters.
type reloadCounter interface {
	ReloadCounts() (ok, failed int64)
}

// newMetrics builds the series of one server; the deck gauges read decks at scrape time.
func newMetrics(decks DeckSource) *appMetrics {
	m := &appMetrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rehearse_http_requests_total", Help: "HTTP requests by route pattern, method and status code.",
		}, []string{"route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "rehearse_http_request_duration_seconds", Help: "HTTP request duration by route pattern and method.",
			Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route", "method"}),
		answers: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "rehearse_answers_recorded_total", Help: "Study answers (ratings) recorded.",
		}),
		mocks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rehearse_mock_sessions_total", Help: "Mock-interview sessions by event (started, finished).",
		}, []string{"event"}),
		simSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "rehearse_simulation_run_seconds", Help: "Time to run one rebalance simulation.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 4, 8),
		}),
	}
	deckCards := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "rehearse_deck_cards", Help: "Cards in the deck currently served.",
	}, func() float64 {
		if d := decks.Deck(); d != nil {
			return float64(d.Len())
		}
		return 0
	})
	m.reg.MustRegister(m.requests, m.duration, m.answers, m.mocks, deckCards, m.simSeconds,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Reloads are counted by the deck holder (SIGHUP reloads never pass through a handler).
	rc, _ := decks.(reloadCounter)
	for i, result := range []string{"ok", "failed"} {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "rehearse_deck_reloads_total", Help: "Deck reloads by result (ok, failed).",
			ConstLabels: prometheus.Labels{"result": result},
		}, func() float64 {
			if rc == nil {
				return 0
			}
			ok, failed := rc.ReloadCounts()
			return float64([]int64{ok, failed}[i])
		}))
	}
	// Both event series exist from the start, so rate() works before the first mock.
	m.mocks.WithLabelValues("started")
	m.mocks.WithLabelValues("finished")
	return m
}

// AnswerRecorded counts one study rating (the study feature calls it after storing a review).
func (m *appMetrics) AnswerRecorded() { m.answers.Inc() }

// MockStarted counts a mock-interview session that began.
func (m *appMetrics) MockStarted() { m.mocks.WithLabelValues("started").Inc() }

// MockFinished counts a mock-interview session that was completed and scored.
func (m *appMetrics) MockFinished() { m.mocks.WithLabelValues("finished").Inc() }

// SimulationRan records how long one simulation run took.
func (m *appMetrics) SimulationRan(d time.Duration) { m.simSeconds.Observe(d.Seconds()) }

func (m *appMetrics) observeRequest(route, method string, status int, d time.Duration) {
	k := requestKey{route, method, statusLabel(status)}
	m.seriesMu.RLock()
	rs, ok := m.series[k]
	m.seriesMu.RUnlock()
	if !ok {
		rs = reqSeries{m.requests.WithLabelValues(route, method, strconv.Itoa(k.code)), m.duration.WithLabelValues(route, method)}
		m.seriesMu.Lock()
		if m.series == nil {
			m.series = map[requestKey]reqSeries{}
		}
		m.series[k] = rs
		m.seriesMu.Unlock()
	}
	rs.count.Inc()
	rs.duration.Observe(d.Seconds())
}

func (m *appMetrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
