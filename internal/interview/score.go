package interview

import (
	"math"
	"time"
)

// Score weights, shown on the summary page.
const (
	WeightBullets    = 50 // share of answer bullets covered, after the user's corrections
	WeightTime       = 25 // 1 within the target, falling linearly to 0 at twice the target
	WeightRating     = 25 // the self-rating: again 0, hard 1/3, good 2/3, easy 1
	PitfallPenalty   = 10 // points off per pitfall hit
	ScoreExplanation = "Each question scores 50 × (bullets covered ÷ bullets) + 25 × time + 25 × rating, minus 10 per pitfall hit, kept between 0 and 100. Time is 1 within the target, falling linearly to 0 at twice the target; rating is 0 for Again, 1/3 for Hard, 2/3 for Good and 1 for Easy. The overall score is the mean over the questions."
)

// Result is what one answered question contributes to the score.
type Result struct {
	Bullets, Covered int
	PitfallsHit      int
	Used, Target     time.Duration
	Rating           int // 1..4; 0 when not rated
}

// TimeFactor is 1 within the target, linear down to 0 at twice the target.
func TimeFactor(used, target time.Duration) float64 {
	if target <= 0 || used <= target {
		return 1
	}
	return max(0, 2-float64(used)/float64(target))
}

// Score is a question's score in [0, 100] (see ScoreExplanation).
func Score(r Result) float64 {
	bullets := 1.0
	if r.Bullets > 0 {
		bullets = float64(min(max(r.Covered, 0), r.Bullets)) / float64(r.Bullets)
	}
	rating := 0.0
	if r.Rating >= 1 && r.Rating <= 4 {
		rating = float64(r.Rating-1) / 3
	}
	s := WeightBullets*bullets + WeightTime*TimeFactor(r.Used, r.Target) + WeightRating*rating
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
