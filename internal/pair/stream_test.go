package pair

import (
	"context"
	"sync"
	"testing"
	"time"
)

// The stream sends the state at once, again when the state or the other side's presence
// changes, and nothing for a wake that changes neither.
func TestStreamSendsChangesOnly(t *testing.T) {
	h := NewHub()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	state := Waiting
	events := make(chan Event, 10)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		h.Stream(ctx, "x", Interviewer, time.Hour, func(context.Context) (State, error) {
			mu.Lock()
			defer mu.Unlock()
			return state, nil
		}, func(ev Event) error { events <- ev; return nil }, func() error { return nil })
	}()
	next := func() Event {
		t.Helper()
		select {
		case ev := <-events:
			return ev
		case <-time.After(5 * time.Second):
			t.Fatal("no event")
		}
		return Event{}
	}
	if ev := next(); ev != (Event{State: "waiting"}) {
		t.Fatalf("first event %+v", ev)
	}
	_, leave := h.Subscribe("x", Candidate)
	if ev := next(); ev != (Event{State: "waiting", Here: true}) {
		t.Fatalf("after the candidate came %+v", ev)
	}
	h.Changed("x") // nothing changed: no event
	mu.Lock()
	state = Running
	mu.Unlock()
	h.Changed("x")
	if ev := next(); ev != (Event{State: "running", Here: true}) {
		t.Fatalf("after the start %+v", ev)
	}
	leave()
	if ev := next(); ev != (Event{State: "running"}) {
		t.Fatalf("after the candidate left %+v", ev)
	}
	cancel()
	<-finished
	select {
	case ev := <-events:
		t.Fatalf("an event with no change: %+v", ev)
	default:
	}
}

func TestReadResult(t *testing.T) {
	notes := make([]byte, MaxNotes+10)
	level, hit, got := ReadResult("x", []string{"1", "y", "0"}, string(notes))
	if level != -1 || len(hit) != 3 || hit[1] != -1 || hit[2] != 0 || len(got) != MaxNotes {
		t.Fatalf("ReadResult: %d %v %d", level, hit, len(got))
	}
	s := Session{Interviewer: 1, Candidate: 2, State: Running}
	if err := s.Finish(1, 2, hit, 2, got, time.Now()); err != ErrResult {
		t.Fatalf("an unreadable pitfall must be refused: %v", err)
	}
	if s.UserOf(Candidate.Other()) != 1 || s.UserOf(Interviewer.Other()) != 2 {
		t.Fatal("UserOf/Other")
	}
}
