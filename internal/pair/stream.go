package pair

import (
	"context"
	"time"
)

// Event is all a stream sends: where the session is and whether the other side is there.
// The screens reload themselves on a change of state, so the page (rendered for its own side)
// is the only place content comes from; the stream carries no question and no rubric.
type Event struct {
	State string `json:"state"`
	Here  bool   `json:"here"` // the other person has the session open
}

// Stream follows session code for a screen in role until ctx ends or a call fails: it sends an
// Event at once and again whenever a wake changes it (state reads the session's state), and
// calls keepAlive after each quiet heartbeat.
func (h *Hub) Stream(ctx context.Context, code string, role Role, heartbeat time.Duration,
	state func(context.Context) (State, error), send func(Event) error, keepAlive func() error) {
	wake, done := h.Subscribe(code, role)
	defer done()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	var last Event
	for first := true; ; first = false {
		st, err := state(ctx)
		if err != nil {
			return
		}
		ev := Event{State: string(st), Here: h.Present(code, role.Other())}
		if first || ev != last {
			if send(ev) != nil {
				return
			}
			last = ev
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
			if keepAlive() != nil {
				return
			}
		}
	}
}
