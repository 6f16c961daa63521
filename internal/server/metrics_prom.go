package server

import (
	"net/http"
	"strconv"
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
	deckCards  prometheus.Gauge
	reloads    *prometheus.CounterVec
	simSeconds prometheus.Histogram
}

func newMetrics() *appMetrics {
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
		deckCards: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "rehearse_deck_cards", Help: "Cards in the deck currently served.",
		}),
		reloads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rehearse_deck_reloads_total", Help: "Deck reloads by result (ok, failed).",
		}, []string{"result"}),
		simSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "rehearse_simulation_run_seconds", Help: "Time to run one rebalance simulation.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 4, 8),
		}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.answers, m.mocks, m.deckCards, m.reloads, m.simSeconds,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Both event series exist from the start, so rate() works before the first mock.
	m.mocks.WithLabelValues("started")
	m.mocks.WithLabelValues("finished")
	m.reloads.WithLabelValues("ok")
	m.reloads.WithLabelValues("failed")
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

func (m *appMetrics) setDeckSize(n int) { m.deckCards.Set(float64(n)) }

func (m *appMetrics) deckReloaded(result string) { m.reloads.WithLabelValues(result).Inc() }

func (m *appMetrics) observeRequest(route, method string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route, method).Observe(d.Seconds())
}

func (m *appMetrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
