package pair

import "sync"

// Hub wakes the open event streams of a session when it changes. It carries no content: each
// stream reads the session again and renders what its own side may see, so nothing meant for
// the interviewer can reach the candidate through it.
type Hub struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]Role
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{subs: map[string]map[chan struct{}]Role{}} }

// Subscribe returns a channel that receives a value after each change of the session code,
// and a function that ends the subscription.
func (h *Hub) Subscribe(code string, r Role) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	if h.subs[code] == nil {
		h.subs[code] = map[chan struct{}]Role{}
	}
	h.subs[code][ch] = r
	h.mu.Unlock()
	h.Changed(code) // the others learn who is here
	return ch, func() {
		h.mu.Lock()
		delete(h.subs[code], ch)
		if len(h.subs[code]) == 0 {
			delete(h.subs, code)
		}
		h.mu.Unlock()
		h.Changed(code)
	}
}

// Changed wakes every stream of the session; a stream that has not caught up yet is woken once.
func (h *Hub) Changed(code string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[code] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Present reports whether someone in role r has the session open.
func (h *Hub) Present(code string, r Role) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, role := range h.subs[code] {
		if role == r {
			return true
		}
	}
	return false
}
