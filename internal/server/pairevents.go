package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/internal/pair"
)

// pairHeartbeat keeps an idle event stream alive through proxies that close quiet connections.
const pairHeartbeat = 20 * time.Second

// pairEvent is all a stream sends: where the session is and whether the other side is there.
// The screens reload themselves on a change of state, so the page (rendered for its own side)
// is the only place content comes from; the stream carries no question and no rubric.
type pairEvent struct {
	State string `json:"state"`
	Here  bool   `json:"here"` // the other person has the session open
}

// pairEvents streams server-sent events: one at once, then one after each change. It works
// behind the README's proxies: Caddy passes text/event-stream through unbuffered, and
// X-Accel-Buffering tells nginx not to buffer it; each event is flushed.
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
	wake, done := s.pairs.Subscribe(sess.Code, role)
	defer done()
	other := pair.Candidate
	if role == pair.Candidate {
		other = pair.Interviewer
	}
	tick := time.NewTicker(pairHeartbeat)
	defer tick.Stop()
	var last pairEvent
	for first := true; ; first = false {
		cur, err := s.db.PairByCode(r.Context(), sess.Code)
		if err != nil {
			return
		}
		ev := pairEvent{State: string(cur.State), Here: s.pairs.Present(sess.Code, other)}
		if first || ev != last {
			b, _ := json.Marshal(ev)
			if _, err := fmt.Fprintf(w, "event: pair\ndata: %s\n\n", b); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
			last = ev
		}
		select {
		case <-r.Context().Done():
			return
		case <-wake:
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			if rc.Flush() != nil {
				return
			}
		}
	}
}
