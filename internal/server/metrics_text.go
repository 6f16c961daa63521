//go:build !promclient

package server

import (
	"bufio"
	"fmt"
	"net/http"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This build writes the Prometheus text exposition format itself, because go.sum does not yet
// hold client_golang's dependencies. metrics_prom.go (build tag promclient) is the same set of
// series on client_golang; the series names, labels and buckets are identical.

var (
	requestBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5}
	simBuckets     = []float64{.0005, .002, .008, .032, .128, .512, 2.048, 8.192}
)

type histogram struct {
	counts []uint64 // per bucket, not cumulative
	sum    float64
	n      uint64
}

func (h *histogram) observe(bounds []float64, v float64) {
	if h.counts == nil {
		h.counts = make([]uint64, len(bounds))
	}
	if i := sort.SearchFloat64s(bounds, v); i < len(bounds) {
		h.counts[i]++
	}
	h.sum += v
	h.n++
}

type appMetrics struct {
	mu        sync.Mutex
	start     time.Time
	requests  map[[3]string]uint64     // route, method, code
	durations map[[2]string]*histogram // route, method
	answers   uint64
	mocks     map[string]uint64 // started, finished
	deckCards float64
	reloads   map[string]uint64 // ok, failed
	sim       histogram
}

func newMetrics() *appMetrics {
	return &appMetrics{start: time.Now(), requests: map[[3]string]uint64{}, durations: map[[2]string]*histogram{},
		mocks: map[string]uint64{"started": 0, "finished": 0}, reloads: map[string]uint64{"ok": 0, "failed": 0}}
}

// AnswerRecorded counts one study rating (the study feature calls it after storing a review).
func (m *appMetrics) AnswerRecorded() { m.mu.Lock(); m.answers++; m.mu.Unlock() }

// MockStarted counts a mock-interview session that began.
func (m *appMetrics) MockStarted() { m.mu.Lock(); m.mocks["started"]++; m.mu.Unlock() }

// MockFinished counts a mock-interview session that was completed and scored.
func (m *appMetrics) MockFinished() { m.mu.Lock(); m.mocks["finished"]++; m.mu.Unlock() }

// SimulationRan records how long one simulation run took.
func (m *appMetrics) SimulationRan(d time.Duration) {
	m.mu.Lock()
	m.sim.observe(simBuckets, d.Seconds())
	m.mu.Unlock()
}

func (m *appMetrics) setDeckSize(n int) { m.mu.Lock(); m.deckCards = float64(n); m.mu.Unlock() }

func (m *appMetrics) deckReloaded(result string) { m.mu.Lock(); m.reloads[result]++; m.mu.Unlock() }

func (m *appMetrics) observeRequest(route, method string, status int, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests[[3]string{route, method, strconv.Itoa(status)}]++
	k := [2]string{route, method}
	h := m.durations[k]
	if h == nil {
		h = &histogram{}
		m.durations[k] = h
	}
	h.observe(requestBuckets, d.Seconds())
}

func (m *appMetrics) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		bw := bufio.NewWriter(w)
		m.write(bw)
		bw.Flush()
	})
}

func (m *appMetrics) write(w *bufio.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	head := func(name, typ, help string) { fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ) }

	head("rehearse_http_requests_total", "counter", "HTTP requests by route pattern, method and status code.")
	for _, k := range sortedKeys(m.requests) {
		fmt.Fprintf(w, "rehearse_http_requests_total{%s} %d\n", labels("code", k[2], "method", k[1], "route", k[0]), m.requests[k])
	}
	head("rehearse_http_request_duration_seconds", "histogram", "HTTP request duration by route pattern and method.")
	for _, k := range sortedKeys(m.durations) {
		writeHistogram(w, "rehearse_http_request_duration_seconds", labels("method", k[1], "route", k[0]), requestBuckets, m.durations[k])
	}
	head("rehearse_answers_recorded_total", "counter", "Study answers (ratings) recorded.")
	fmt.Fprintf(w, "rehearse_answers_recorded_total %d\n", m.answers)
	head("rehearse_mock_sessions_total", "counter", "Mock-interview sessions by event (started, finished).")
	for _, ev := range []string{"finished", "started"} {
		fmt.Fprintf(w, "rehearse_mock_sessions_total{%s} %d\n", labels("event", ev), m.mocks[ev])
	}
	head("rehearse_deck_cards", "gauge", "Cards in the deck currently served.")
	fmt.Fprintf(w, "rehearse_deck_cards %g\n", m.deckCards)
	head("rehearse_deck_reloads_total", "counter", "Deck reloads by result (ok, failed).")
	for _, res := range []string{"failed", "ok"} {
		fmt.Fprintf(w, "rehearse_deck_reloads_total{%s} %d\n", labels("result", res), m.reloads[res])
	}
	head("rehearse_simulation_run_seconds", "histogram", "Time to run one rebalance simulation.")
	writeHistogram(w, "rehearse_simulation_run_seconds", "", simBuckets, &m.sim)
	head("go_goroutines", "gauge", "Number of goroutines that currently exist.")
	fmt.Fprintf(w, "go_goroutines %d\n", runtime.NumGoroutine())
	head("process_start_time_seconds", "gauge", "Start time of the process since unix epoch in seconds.")
	fmt.Fprintf(w, "process_start_time_seconds %d\n", m.start.Unix())
}

func writeHistogram(w *bufio.Writer, name, lbl string, bounds []float64, h *histogram) {
	sep := ""
	if lbl != "" {
		sep = ","
	}
	var cum uint64
	for i, b := range bounds {
		if h.counts != nil {
			cum += h.counts[i]
		}
		fmt.Fprintf(w, "%s_bucket{%s%sle=\"%s\"} %d\n", name, lbl, sep, strconv.FormatFloat(b, 'g', -1, 64), cum)
	}
	fmt.Fprintf(w, "%s_bucket{%s%sle=\"+Inf\"} %d\n", name, lbl, sep, h.n)
	if lbl != "" {
		lbl = "{" + lbl + "}"
	}
	fmt.Fprintf(w, "%s_sum%s %g\n%s_count%s %d\n", name, lbl, h.sum, name, lbl, h.n)
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// labels renders name="value" pairs, escaped as the exposition format requires; callers pass
// names in sorted order, as client_golang writes them.
func labels(kv ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(kv[i] + `="` + labelEscaper.Replace(kv[i+1]) + `"`)
	}
	return b.String()
}

func sortedKeys[K [2]string | [3]string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
	return keys
}
