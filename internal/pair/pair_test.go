package pair

import (
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func TestSessionSteps(t *testing.T) {
	if _, err := Open("c", 1, 1, "card", time.Minute, t0); !errors.Is(err, ErrSelf) {
		t.Fatalf("interviewing yourself: %v", err)
	}
	s, _ := Open("c", 1, 2, "card", time.Minute, t0)
	if s.RoleOf(1) != Interviewer || s.RoleOf(2) != Candidate || s.RoleOf(3) != Outsider {
		t.Fatal("roles")
	}
	if err := s.Finish(1, 2, nil, 3, "", t0); !errors.Is(err, ErrState) {
		t.Fatalf("finish before start: %v", err)
	}
	if err := s.Start(2, t0); !errors.Is(err, ErrNotAllowed) {
		t.Fatalf("the candidate starts: %v", err)
	}
	if err := s.Start(1, t0.Add(time.Second)); err != nil || s.State != Running {
		t.Fatalf("start: %v %s", err, s.State)
	}
	if err := s.Start(1, t0); !errors.Is(err, ErrState) {
		t.Fatalf("start twice: %v", err)
	}
	for _, bad := range []struct {
		level int
		hit   []int
	}{{5, nil}, {-1, nil}, {2, []int{3}}, {2, []int{-1}}} {
		if err := s.Finish(1, bad.level, bad.hit, 3, "", t0); !errors.Is(err, ErrResult) {
			t.Fatalf("finish with level %d pitfalls %v: %v", bad.level, bad.hit, err)
		}
	}
	if err := s.Finish(2, 2, nil, 3, "", t0); !errors.Is(err, ErrNotAllowed) {
		t.Fatalf("the candidate finishes: %v", err)
	}
	if err := s.Finish(1, 3, []int{2, 0, 2}, 3, "good", t0.Add(91*time.Second)); err != nil {
		t.Fatal(err)
	}
	if s.State != Done || len(s.PitfallsHit) != 2 || s.Used(t0.Add(time.Hour)) != 90*time.Second || s.Rating() != 4 || s.Depth() != "deeper" {
		t.Fatalf("after finishing: %+v used %v rating %d", s, s.Used(t0), s.Rating())
	}
	if err := s.Cancel(1, t0); !errors.Is(err, ErrState) {
		t.Fatalf("cancel a finished session: %v", err)
	}
}

func TestRatingFromLevel(t *testing.T) {
	for level, want := range []int{1, 2, 3, 4, 4} {
		if got := (Session{Level: level}).Rating(); got != want {
			t.Errorf("level %d: rating %d, want %d", level, got, want)
		}
	}
}

func TestHubWakesAndCountsPresence(t *testing.T) {
	h := NewHub()
	a, doneA := h.Subscribe("x", Interviewer)
	<-a // its own arrival
	if h.Present("x", Candidate) {
		t.Fatal("a candidate present before one subscribed")
	}
	b, doneB := h.Subscribe("x", Candidate)
	select {
	case <-a:
	default:
		t.Fatal("the interviewer was not woken when the candidate arrived")
	}
	<-b
	if !h.Present("x", Candidate) {
		t.Fatal("candidate not present")
	}
	h.Changed("y") // another session: nobody here wakes
	select {
	case <-a:
		t.Fatal("woken by another session")
	default:
	}
	doneB()
	<-a
	if h.Present("x", Candidate) {
		t.Fatal("candidate still present after leaving")
	}
	doneA()
	if len(h.subs) != 0 {
		t.Fatal("subscriptions left behind")
	}
}
