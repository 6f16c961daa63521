package srs

import (
	"strconv"
	"time"
)

// Rating is the learner's answer to a card.
type Rating int

// allRatings, numbered as in FSRS (G = 1..4).
const (
	Again Rating = 1
	Hard  Rating = 2
	Good  Rating = 3
	Easy  Rating = 4
)

// allRatings lists the valid ratings in button order (Preview index order).
var allRatings = [4]Rating{Again, Hard, Good, Easy}

// Valid reports whether r is one of Again, Hard, Good, Easy.
func (r Rating) Valid() bool { return r >= Again && r <= Easy }

func (r Rating) String() string {
	switch r {
	case Again:
		return "again"
	case Hard:
		return "hard"
	case Good:
		return "good"
	case Easy:
		return "easy"
	}
	return "rating(" + strconv.Itoa(int(r)) + ")"
}

// State is where a card is in its life cycle.
type State int

// Card states. New is the zero value so a zero Card is a new card.
const (
	New        State = 0
	Learning   State = 1
	Review     State = 2
	Relearning State = 3
)

func (s State) String() string {
	switch s {
	case New:
		return "new"
	case Learning:
		return "learning"
	case Review:
		return "review"
	case Relearning:
		return "relearning"
	}
	return "state(" + strconv.Itoa(int(s)) + ")"
}

// Card is the scheduling state of one card. The zero value is a new, never-reviewed card.
type Card struct {
	State      State
	Step       int     // index into the learning or relearning steps
	Stability  float64 // days
	Difficulty float64
	Due        time.Time
	LastReview time.Time
	Reps       int // answers recorded, every rating counts
	Lapses     int // times a Review card was answered Again
}
