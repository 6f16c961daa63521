package interview

import (
	"math"
	"slices"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
)

// Score weights, shown on the summary page.
const (
	WeightPoints   = 50 // share of the depth's key points made, after the user's corrections
	WeightTime     = 25 // closeness to the target (TimeFactor), only for an answer with content
	WeightRating   = 25 // the self-rating: again 0, hard 1/3, good 2/3, easy 1
	PitfallPenalty = 10 // points off per pitfall hit
	EmptyCap       = 25 // the most an answer with nothing typed, spoken or ticked can score

	// TimeBand: within this share of the target either way, the time is right.
	TimeBand = 0.2

	ScoreExplanation = "Each answer scores 50 × (key points made ÷ key points of the chosen depth) + 25 × time + 25 × rating, minus 10 per pitfall hit, kept between 0 and 100. " +
		"Time is 1 within 20 % of the target either way and falls in a straight line to 0 at no time at all and at twice the target, so a rushed answer loses credit like a rambling one; it counts spoken time when you recorded, otherwise the time you took. " +
		"Rating is 0 for Again, 1/3 for Hard, 2/3 for Good and 1 for Easy. " +
		"An answer with nothing typed, spoken or ticked gets no time credit and at most 25, whatever the rating. " +
		"The overall score is the mean over the questions answered."
)

// Result is what one answered question contributes to the score.
type Result struct {
	Bullets, Covered int // key points of the chosen depth, and how many were made
	PitfallsHit      int
	Used, Target     time.Duration // Used: spoken time when recorded, else the time taken
	Rating           int           // 1..4; 0 when not rated
	// Empty: nothing was typed, spoken or ticked. It earns no time credit and at most EmptyCap.
	Empty bool
}

// TimeFactor is 1 within TimeBand of the target, falling linearly to 0 at zero time and at
// twice the target.
func TimeFactor(used, target time.Duration) float64 {
	if target <= 0 {
		return 1
	}
	r := float64(max(used, 0)) / float64(target)
	switch {
	case r < 1-TimeBand:
		return r / (1 - TimeBand)
	case r > 1+TimeBand:
		return max(0, (2-r)/(1-TimeBand))
	}
	return 1
}

// Score is a question's score in [0, 100] (see ScoreExplanation).
func Score(r Result) float64 {
	rating := 0.0
	if r.Rating >= 1 && r.Rating <= 4 {
		rating = float64(r.Rating-1) / 3
	}
	if r.Empty {
		return math.Min(EmptyCap, WeightRating*rating)
	}
	points := 1.0
	if r.Bullets > 0 {
		points = float64(min(max(r.Covered, 0), r.Bullets)) / float64(r.Bullets)
	}
	s := WeightPoints*points + WeightTime*TimeFactor(r.Used, r.Target) + WeightRating*rating
	s -= PitfallPenalty * float64(max(r.PitfallsHit, 0))
	return math.Min(100, math.Max(0, s))
}

// Overall is the mean of the scores (0 for none).
func Overall(scores []float64) float64 {
	if len(scores) == 0 {
		return 0
	}
	sum := 0.0
	for _, s := range scores {
		sum += s
	}
	return sum / float64(len(scores))
}

// Stored is an answer as it is kept, before judging: what the summary and the team view score.
type Stored struct {
	Covered      []int // indexes of the card's bullets ticked
	PitfallsHit  int
	HasText      bool          // something was typed
	Spoken       time.Duration // voiced time of the answer's recording, 0 without one
	Used, Target time.Duration // time taken and the target
	Rating       int
}

// Judge turns a stored answer to c at depth into its Result: only the depth's key points count,
// spoken time stands for the time taken when there is a recording, and an answer with nothing
// typed, spoken or ticked is empty. c nil (a card gone from the deck) counts every tick.
func Judge(c *deck.Card, depth string, a Stored) Result {
	r := Result{Bullets: len(a.Covered), Covered: len(a.Covered), PitfallsHit: a.PitfallsHit,
		Used: a.Used, Target: a.Target, Rating: a.Rating,
		Empty: !a.HasText && len(a.Covered) == 0 && a.Spoken == 0}
	if a.Spoken > 0 {
		r.Used = a.Spoken
	}
	if c != nil {
		points := Points(c, depth)
		r.Bullets, r.Covered = len(points), 0
		for _, i := range a.Covered {
			if slices.Contains(points, i) {
				r.Covered++
			}
		}
	}
	return r
}
