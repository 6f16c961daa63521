package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/pair"
)

// pairHeartbeat keeps an idle event stream alive through proxies that close quiet connections.
const pairHeartbeat = 20 * time.Second

// pairEvents streams server-sent events (pair.Hub.Stream decides when). It works behind the
// README's proxies: Caddy passes text/event-stream through unbuffered, and X-Accel-Buffering
// tells nginx not to buffer it; each event is flushed.
func (s *Server) pairEvents(w http.ResponseWriter, r *http.Request) {
	sess, role, ok := s.pairFor(w, r)
	if !ok {
		return
	}
	rc := http.NewResponseController(w)
	rc.SetWriteDeadline(time.Time{}) // the server's write timeout would end the stream
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	write := func(format string, a ...any) error {
		if _, err := fmt.Fprintf(w, format, a...); err != nil {
			return err
		}
		return rc.Flush()
	}
	state := func(ctx context.Context) (pair.State, error) {
		cur, err := s.db.PairByCode(ctx, sess.Code)
		if err != nil {
			return "", err
		}
		return cur.State, nil
	}
	send := func(ev pair.Event) error {
		b, _ := json.Marshal(ev)
		return write("event: pair\ndata: %s\n\n", b)
	}
	s.pairs.Stream(r.Context(), sess.Code, role, pairHeartbeat, state, send, func() error { return write(": keep-alive\n\n") })
}
