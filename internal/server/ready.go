package server

import (
	"context"
	"net/http"
	"sync"
	"time"
)

// readyCacheFor bounds the write probes /readyz makes: one per interval however often it is
// asked, so polling it cannot turn into a write load.
const (
	readyCacheFor = time.Second
	probeTimeout  = 2 * time.Second
)

type readyState struct {
	mu     sync.Mutex
	at     time.Time
	reason string // "" when ready
}

// readyz answers 200 when the database takes a write and a deck is loaded, else 503 with the
// reason, so a load balancer only sends traffic to an instance that can serve it.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if reason := s.readiness(r.Context()); reason != "" {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(reason + "\n"))
		return
	}
	w.Write([]byte("ready\n"))
}

// readiness is "" when ready, else why not. The read check runs every time; the write probe
// at most once per readyCacheFor.
func (s *Server) readiness(ctx context.Context) string {
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), probeTimeout)
	defer cancel()
	reason := ""
	if err := s.db.Ping(pctx); err != nil {
		reason = "database unavailable: " + err.Error()
	} else {
		reason = s.writeProbe(pctx)
	}
	if d := s.deck(); reason == "" && (d == nil || d.Len() == 0) {
		reason = "no deck loaded"
	}
	if reason != "" {
		s.log.WarnContext(ctx, "not ready", "reason", reason)
	}
	return reason
}

func (s *Server) writeProbe(ctx context.Context) string {
	rs := &s.ready
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if !rs.at.IsZero() && time.Since(rs.at) < readyCacheFor {
		return rs.reason
	}
	rs.reason = ""
	if err := s.db.Probe(ctx, s.now()); err != nil {
		rs.reason = "database cannot be written: " + err.Error()
	}
	rs.at = time.Now()
	return rs.reason
}
