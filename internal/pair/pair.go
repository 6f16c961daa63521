// Package pair holds the rules of a live interview between two members: one interviews with
// the card's rubric in hand, the other answers seeing only the question and the clock. It is
// pure: the caller passes the clock and stores what changed. Hub (hub.go) tells each side's
// open event stream that the session changed.
package pair

import (
	"errors"
	"time"
)

// State is where a session is.
type State string

const (
	Waiting   State = "waiting"   // opened; the candidate can join, the question is not shown yet
	Running   State = "running"   // the interviewer started the clock: the question is shown
	Done      State = "done"      // the interviewer recorded the result
	Cancelled State = "cancelled" // ended without a result
)

// Levels is how many go-deeper levels a rubric has.
const Levels = 4

// Role is how a user takes part in a session.
type Role int

const (
	Outsider Role = iota
	Interviewer
	Candidate
)

// Session is one pair interview.
type Session struct {
	ID                     int64
	Code                   string
	Interviewer, Candidate int64
	CardID                 string
	Target                 time.Duration
	State                  State
	CreatedAt              time.Time
	StartedAt, EndedAt     time.Time
	Notes                  string
	Level                  int   // go-deeper level reached, 0 (none) to Levels
	PitfallsHit            []int // indexes into the card's pitfalls
}

// Errors a caller words for the user.
var (
	ErrSelf       = errors.New("pair: choose a colleague to interview, not yourself")
	ErrNotAllowed = errors.New("pair: only the interviewer can do that")
	ErrState      = errors.New("pair: the session is not at that step")
	ErrResult     = errors.New("pair: the result is out of range")
)

// Open makes a waiting session.
func Open(code string, interviewer, candidate int64, cardID string, target time.Duration, now time.Time) (Session, error) {
	if interviewer == candidate {
		return Session{}, ErrSelf
	}
	return Session{Code: code, Interviewer: interviewer, Candidate: candidate, CardID: cardID,
		Target: target, State: Waiting, CreatedAt: now}, nil
}

// RoleOf is how user takes part (Outsider: not at all).
func (s Session) RoleOf(user int64) Role {
	switch user {
	case s.Interviewer:
		return Interviewer
	case s.Candidate:
		return Candidate
	}
	return Outsider
}

// Start shows the question and starts the shared clock.
func (s *Session) Start(by int64, now time.Time) error {
	if by != s.Interviewer {
		return ErrNotAllowed
	}
	if s.State != Waiting {
		return ErrState
	}
	s.State, s.StartedAt = Running, now
	return nil
}

// Finish records the result: the level reached, the pitfalls hit (indexes below nPitfalls)
// and the interviewer's notes.
func (s *Session) Finish(by int64, level int, pitfalls []int, nPitfalls int, notes string, now time.Time) error {
	if by != s.Interviewer {
		return ErrNotAllowed
	}
	if s.State != Running {
		return ErrState
	}
	if level < 0 || level > Levels {
		return ErrResult
	}
	seen := map[int]bool{}
	hit := []int{}
	for _, p := range pitfalls {
		if p < 0 || p >= nPitfalls {
			return ErrResult
		}
		if !seen[p] {
			seen[p] = true
			hit = append(hit, p)
		}
	}
	s.State, s.EndedAt, s.Level, s.PitfallsHit, s.Notes = Done, now, level, hit, notes
	return nil
}

// Cancel ends a session that has no result; either side may.
func (s *Session) Cancel(by int64, now time.Time) error {
	if s.RoleOf(by) == Outsider {
		return ErrNotAllowed
	}
	if s.State == Done || s.State == Cancelled {
		return ErrState
	}
	s.State, s.EndedAt = Cancelled, now
	return nil
}

// Used is how long the answer took: from the start to the end, or to now while running.
func (s Session) Used(now time.Time) time.Duration {
	switch {
	case s.StartedAt.IsZero():
		return 0
	case !s.EndedAt.IsZero():
		return s.EndedAt.Sub(s.StartedAt)
	}
	return now.Sub(s.StartedAt)
}

// Rating is what the result counts as in the candidate's history, on the 1–4 scale of a
// self-rating: no level reached is Again, the first Hard, the second Good, deeper Easy.
func (s Session) Rating() int {
	switch {
	case s.Level == 0:
		return 1
	case s.Level == 1:
		return 2
	case s.Level == 2:
		return 3
	}
	return 4
}

// Depth is the answer depth the level reached corresponds to (the mock history's tiers).
func (s Session) Depth() string {
	switch {
	case s.Level >= 3:
		return "deeper"
	case s.Level == 2:
		return "solid"
	}
	return "basics"
}
