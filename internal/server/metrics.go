package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// MetricsHandler serves this server's Prometheus series (for the separate metrics listener).
func (s *Server) MetricsHandler() http.Handler { return s.metrics.handler() }

// routeLabel is the matched route pattern: a closed set, fixed when the router is built. The
// metrics count requests by it, never by the raw path, so the number of series stays bounded
// and no token in a path reaches them.
func routeLabel(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
		return rc.RoutePattern()
	}
	return "unmatched"
}

// methodLabel maps any method outside the standard ones to "OTHER", so a client inventing
// methods cannot create series (or long log lines).
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "OTHER"
}

// statusLabel keeps the code label to real HTTP status codes (100-599).
func statusLabel(status int) int {
	switch {
	case status == 0:
		return http.StatusOK
	case status < 100 || status > 599:
		return 0
	}
	return status
}

// metricsPage serves /metrics to admins when no separate metrics address is configured.
func (s *Server) metricsPage(w http.ResponseWriter, r *http.Request) {
	s.MetricsHandler().ServeHTTP(w, r)
}
