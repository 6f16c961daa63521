package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/appmetrics"
)

// MetricsHandler serves this server's Prometheus series (for the separate metrics listener).
func (s *Server) MetricsHandler() http.Handler { return s.metrics.Handler() }

// newMetrics builds the server's series over its deck; reloads are counted by a deck holder
// that reloads (SIGHUP reloads never pass through a handler).
func newMetrics(decks DeckSource) *appmetrics.Metrics {
	var reloads func() (ok, failed int64)
	if rc, ok := decks.(interface{ ReloadCounts() (ok, failed int64) }); ok {
		reloads = rc.ReloadCounts
	}
	return appmetrics.New(func() int {
		if d := decks.Deck(); d != nil {
			return d.Len()
		}
		return 0
	}, reloads)
}

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

// metricsPage serves /metrics to admins when no separate metrics address is configured.
func (s *Server) metricsPage(w http.ResponseWriter, r *http.Request) {
	s.MetricsHandler().ServeHTTP(w, r)
}
