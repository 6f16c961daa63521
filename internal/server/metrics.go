package server

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// metrics is the process-wide set of Prometheus series; features report through its exported
// methods: AnswerRecorded, MockStarted, MockFinished, SimulationRan.
var metrics = newMetrics()

// MetricsHandler serves the Prometheus exposition format (for the separate metrics listener).
func MetricsHandler() http.Handler { return metrics.handler() }

// instrument counts and times every request by its route pattern, never by the raw path, so
// the number of series stays bounded and no token in a path reaches the metrics.
func (s *Server) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww, ok := w.(middleware.WrapResponseWriter)
		if !ok {
			ww = middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		}
		next.ServeHTTP(ww, r)
		route := "unmatched"
		if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
			route = rc.RoutePattern()
		}
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		metrics.observeRequest(route, r.Method, status, time.Since(start))
	})
}

// metricsPage serves /metrics to admins when no separate metrics address is configured.
func (s *Server) metricsPage(w http.ResponseWriter, r *http.Request) {
	MetricsHandler().ServeHTTP(w, r)
}
