package interview

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
)

// Score weights, stated on the summary page. The learner's own rating is shown beside the score
// and is at most a tenth of it; time counts only for a spoken answer, since typing speed says
// nothing about speaking on time.
const (
	WeightPointsSpoken = 60           // share of the depth's key points made, for a spoken answer
	WeightTime         = 30           // closeness to the target (TimeFactor), spoken answers only
	WeightPointsTyped  = 90           // share of key points made, for an answer only typed
	WeightRating       = 10           // the self-rating: again 0, hard 1/3, good 2/3, easy 1
	FollowUpShare      = 0.2          // a follow-up asked takes this share of the question's score
	PitfallPenalty     = 10           // points off per pitfall hit
	EmptyCap           = WeightRating // the most an answer with nothing typed, spoken or ticked can score

	// TimeBand: within this share of the target either way, the time is right.
	TimeBand = 0.2

	ScoreExplanation = "A spoken answer scores 60 × (key points made ÷ key points of the chosen depth) + 30 × time + 10 × your rating. " +
		"An answer only typed is judged on content: 90 × key points + 10 × your rating, and its time is shown but not scored, since typing speed says nothing about speaking on time. " +
		"Time is 1 within 20 % of the target either way and falls in a straight line to 0 at no time at all and at twice the target, so a rushed answer loses credit like a rambling one; it is the voiced time of your recording. " +
		"Your rating (0 for Again, 1/3 Hard, 2/3 Good, 1 Easy) is shown beside the score and is at most a tenth of it. " +
		"When a follow-up was asked, the question's score is 80 % of that plus 20 × the share of the follow-up's answer you gave. " +
		"Each pitfall hit takes 10 off; scores stay between 0 and 100. An answer with nothing typed, spoken or ticked scores at most 10, whatever the rating. " +
		"The overall score is the mean over the questions rated; the level is the deepest go-deeper level whose points your answer made."
)

// Result is what one answered question contributes to the score.
type Result struct {
	Bullets, Covered int // key points of the chosen depth, and how many were made
	PitfallsHit      int
	Used, Target     time.Duration // Used: the recording's voiced time when Spoken, else the time taken
	Spoken           bool          // recorded: time is scored
	Rating           int           // 1..4; 0 when not rated
	// Empty: nothing was typed, spoken or ticked. It earns at most EmptyCap.
	Empty bool
	// FollowUpAsked: a follow-up was asked; FollowUpMade is the share of its answer given (0..1).
	FollowUpAsked bool
	FollowUpMade  float64
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
	s := WeightPointsTyped*points + WeightRating*rating
	if r.Spoken {
		s = WeightPointsSpoken*points + WeightTime*TimeFactor(r.Used, r.Target) + WeightRating*rating
	}
	if r.FollowUpAsked {
		s = (1-FollowUpShare)*s + 100*FollowUpShare*math.Min(1, math.Max(0, r.FollowUpMade))
	}
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
	// The follow-up, when one was asked and answered (AskedFollowUp): its index among the card's
	// follow-ups and what was typed or heard.
	AskedFollowUp  bool
	FollowUp       int
	FollowUpAnswer string
}

// Judge turns a stored answer to c at depth into its Result: only the depth's key points count,
// spoken time stands for the time taken when there is a recording, and an answer with nothing
// typed, spoken or ticked is empty. c nil (a card gone from the deck) counts every tick.
func Judge(c *deck.Card, depth string, a Stored) Result {
	r := Result{Bullets: len(a.Covered), Covered: len(a.Covered), PitfallsHit: a.PitfallsHit,
		Used: a.Used, Target: a.Target, Rating: a.Rating, Spoken: a.Spoken > 0,
		Empty: !a.HasText && len(a.Covered) == 0 && a.Spoken == 0}
	if a.Spoken > 0 {
		r.Used = a.Spoken
	}
	if c != nil && a.AskedFollowUp && a.FollowUp >= 0 && a.FollowUp < len(c.FollowUps) {
		r.FollowUpAsked = true
		r.FollowUpMade = FollowUpMade(c.FollowUps[a.FollowUp], a.FollowUpAnswer)
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

// FollowUpMade is the share of a follow-up's model answer that answer gives: its key words
// found, against what the point rule asks of a bullet (0..1).
func FollowUpMade(f deck.FollowUp, answer string) float64 {
	if strings.TrimSpace(answer) == "" {
		return 0
	}
	bc := CheckBullet(f.Answer.Text(), answer)
	if bc.Covered {
		return 1
	}
	return math.Min(1, float64(len(bc.Matched))/float64(max(bc.Need, 1)))
}

// Level is the deepest go-deeper level (1..4) whose expectation the answer meets, by the point
// rule applied to each level's text as an interviewer's rubric; 0 when it meets none.
func Level(c *deck.Card, answer string) int {
	if strings.TrimSpace(answer) == "" {
		return 0
	}
	level := 0
	for i, l := range c.Deeper {
		if checkBullet(l.Text(), answer, commonTerms(c)).Covered {
			level = i + 1
		}
	}
	return level
}
