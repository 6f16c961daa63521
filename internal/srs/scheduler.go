package srs

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// maxIntervalCap bounds intervals whatever MaxInterval says, so due times stay well
// inside time.Duration's ~292-year range.
const maxIntervalCap = 100000

const day = 24 * time.Hour

// Scheduler holds the settings of one user's FSRS-6 scheduler. It is a plain value:
// copy it freely; Review and Preview never modify it.
type Scheduler struct {
	Params           [21]float64
	DesiredRetention float64         // target recall probability when a card comes due, in (0, 1)
	LearningSteps    []time.Duration // steps a new card goes through before Review
	RelearningSteps  []time.Duration // steps a lapsed Review card goes through
	MaxInterval      int             // days
	Fuzz             bool            // spread Review intervals a little so cards do not clump
	// Deadline, when set, is an interview date (the moment its study day starts): see
	// deadlineDays. DeadlineWindow is how many days before it count as "the last days".
	Deadline       time.Time
	DeadlineWindow int
}

// DefaultScheduler returns the FSRS-6 defaults: default weights, 90 % retention,
// learning steps 1m and 10m, relearning step 10m, 36 500-day cap, fuzz on.
func DefaultScheduler() Scheduler {
	return Scheduler{
		Params:           DefaultParams,
		DesiredRetention: 0.9,
		LearningSteps:    []time.Duration{time.Minute, 10 * time.Minute},
		RelearningSteps:  []time.Duration{10 * time.Minute},
		MaxInterval:      36500,
		Fuzz:             true,
	}
}

// Validate reports the first setting that Review cannot use meaningfully.
func (s Scheduler) Validate() error {
	if !(s.DesiredRetention > 0 && s.DesiredRetention < 1) {
		return fmt.Errorf("srs: desired retention %v must be between 0 and 1 (exclusive)", s.DesiredRetention)
	}
	for i, d := range s.LearningSteps {
		if d <= 0 {
			return fmt.Errorf("srs: learning step %d is %v, want > 0", i+1, d)
		}
	}
	for i, d := range s.RelearningSteps {
		if d <= 0 {
			return fmt.Errorf("srs: relearning step %d is %v, want > 0", i+1, d)
		}
	}
	if s.MaxInterval < 1 {
		return errors.New("srs: maximum interval must be at least 1 day")
	}
	return checkParams(s.Params)
}

// Review returns card c after it was answered with rating r at time now.
//
// Callers must check r.Valid() first: an invalid rating returns c unchanged. A card in
// state New (including the zero Card) gets its initial memory state; a card with an
// unknown state or no stability is treated as New. Review never panics, but a scheduler
// that fails Validate gives meaningless intervals (always at least 1 day).
//
// As in py-fsrs, learning steps are used as configured even when a step is longer than
// the interval the card would get on graduating; the next answer resolves it.
//
// Review fuzzes intervals with no card identity; use ReviewCard for a real card so that its
// fuzz is its own.
func (s Scheduler) Review(c Card, r Rating, now time.Time) Card {
	return s.ReviewCard("", c, r, now)
}

// ReviewCard is Review for the card named id: the fuzz is seeded from id and c.Reps, so
// previewing and then answering at about the same time give the same interval.
func (s Scheduler) ReviewCard(id string, c Card, r Rating, now time.Time) Card {
	return s.review(newModel(s.Params), id, c, r, now)
}

// review is ReviewCard with the model built from s.Params, which a preview builds once for
// its four ratings.
func (s *Scheduler) review(m model, id string, c Card, r Rating, now time.Time) Card {
	if !r.Valid() {
		return c
	}
	out := c
	if c.State <= New || c.State > Relearning || !(c.Stability > 0) {
		out.State, out.Step = Learning, 0
		out.Stability = m.initStability(r)
		out.Difficulty = m.initDifficulty(r)
	} else {
		st, d := clampStability(c.Stability), clampDifficulty(c.Difficulty)
		t, known := elapsedDays(c.LastReview, now)
		switch {
		case known && t < 1:
			out.Stability = m.shortTermStability(st, r)
		case r == Again:
			out.Stability = m.forgetStability(d, st, recallProbability(m, c, t, known))
		default:
			out.Stability = m.recallStability(d, st, recallProbability(m, c, t, known), r)
		}
		out.Difficulty = m.nextDifficulty(d, r)
	}
	out.Reps++

	var ivl time.Duration
	switch out.State {
	case Learning:
		ivl = stepInterval(&out, r, s.LearningSteps)
	case Relearning:
		ivl = stepInterval(&out, r, s.RelearningSteps)
	default: // Review
		out.Step = 0
		if r == Again {
			out.Lapses++
			if len(s.RelearningSteps) > 0 {
				out.State = Relearning
				ivl = s.RelearningSteps[0]
			}
		}
	}
	if out.State == Review { // stayed in or graduated to Review: schedule in days
		key := fuzzKey(id)
		ivl = time.Duration(s.deadlineDays(s.reviewDays(out, m, key, c.Reps), now, key, c.Reps)) * day
	}
	out.Due = now.Add(ivl)
	out.LastReview = now
	return out
}

// stepInterval applies the (re)learning step rules to out and returns the time until it is
// due. When the card graduates it sets out.State to Review and returns 0: the caller
// schedules Review cards in days.
func stepInterval(out *Card, r Rating, steps []time.Duration) time.Duration {
	i := max(out.Step, 0)
	// No steps, or a step index left over from a longer step list: only Again stays.
	if len(steps) == 0 || (i >= len(steps) && r != Again) {
		out.State, out.Step = Review, 0
		return 0
	}
	switch r {
	case Again:
		out.Step = 0
		return steps[0]
	case Hard:
		out.Step = i
		switch {
		case i == 0 && len(steps) == 1:
			return steps[0] + steps[0]/2
		case i == 0:
			return (steps[0] + steps[1]) / 2
		}
		return steps[i]
	case Good:
		if i+1 < len(steps) {
			out.Step = i + 1
			return steps[i+1]
		}
	}
	out.State, out.Step = Review, 0 // Good on the last step, or Easy
	return 0
}

// reviewDays is the Review interval for c's new stability: rounded to whole days, clamped
// to [1, MaxInterval] and fuzzed when enabled.
func (s Scheduler) reviewDays(c Card, m model, key uint64, reps int) int {
	n := s.intervalDays(m, c.Stability)
	if s.Fuzz {
		n = s.fuzz(n, key, reps)
	}
	return n
}

func (s Scheduler) intervalDays(m model, stability float64) int {
	ivl := math.Round(m.interval(stability, s.DesiredRetention))
	hi := s.maxInterval()
	switch {
	case !(ivl >= 1): // also catches NaN from a bad retention
		return 1
	case ivl > float64(hi):
		return hi
	}
	return int(ivl)
}

func (s Scheduler) maxInterval() int {
	return min(max(s.MaxInterval, 1), maxIntervalCap)
}

// Retrievability is the predicted probability that c is recalled at now: 1 right after a
// review, 0.9 when S days have passed, 0 for a card never reviewed.
func (s Scheduler) Retrievability(c Card, now time.Time) float64 {
	if c.State == New || c.LastReview.IsZero() || !(c.Stability > 0) {
		return 0
	}
	t, _ := elapsedDays(c.LastReview, now)
	return newModel(s.Params).retrievability(float64(max(t, 0)), c.Stability)
}

// recallProbability is R at review time; like py-fsrs, a reviewed card with no recorded last
// review counts as fully forgotten.
func recallProbability(m model, c Card, t int, known bool) float64 {
	if !known {
		return 0
	}
	return m.retrievability(float64(max(t, 0)), clampStability(c.Stability))
}

// Preview returns the card that each rating would produce, index 0 = Again … 3 = Easy,
// so a UI can label the answer buttons with their intervals.
func (s Scheduler) Preview(c Card, now time.Time) [4]Card { return s.PreviewCard("", c, now) }

// PreviewCard is Preview for the card named id, matching what ReviewCard will apply.
func (s Scheduler) PreviewCard(id string, c Card, now time.Time) [4]Card {
	var out [4]Card
	m := newModel(s.Params)
	for i, r := range allRatings {
		out[i] = s.review(m, id, c, r, now)
	}
	return out
}

// elapsedDays is t = floor(elapsed hours / 24); known is false when there is no last review.
func elapsedDays(last, now time.Time) (t int, known bool) {
	if last.IsZero() {
		return 0, false
	}
	d := now.Sub(last)
	t = int(d / day)
	if d < 0 && d%day != 0 {
		t-- // floor, not truncation, for a clock that went backwards
	}
	return t, true
}
