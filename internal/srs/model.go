package srs

import "math"

// Bounds applied after every memory-state update.
const (
	minStability  = 0.001
	maxStability  = 36500
	minDifficulty = 1
	maxDifficulty = 10
)

// model holds the weights plus the curve constants derived from w20, computed once per
// review rather than once per formula.
type model struct {
	w      [21]float64
	decay  float64 // −w20
	factor float64 // 0.9^(1/decay) − 1, so that R(S, S) = 0.9
}

func newModel(w [21]float64) model {
	decay := -w[20]
	return model{w: w, decay: decay, factor: math.Pow(0.9, 1/decay) - 1}
}

// retrievability is R(t, S) for t whole days since the last review.
func (m model) retrievability(t, s float64) float64 {
	return math.Pow(1+m.factor*t/s, m.decay)
}

// interval is the unrounded number of days until R falls to retention r.
func (m model) interval(s, r float64) float64 {
	return s / m.factor * (math.Pow(r, 1/m.decay) - 1)
}

func (m model) initStability(g Rating) float64 {
	return clampStability(m.w[g-1])
}

// initDifficultyRaw is D0(G) unclamped; mean reversion targets the raw D0(Easy).
func (m model) initDifficultyRaw(g Rating) float64 {
	return m.w[4] - math.Exp(m.w[5]*float64(g-1)) + 1
}

func (m model) initDifficulty(g Rating) float64 {
	return clampDifficulty(m.initDifficultyRaw(g))
}

func (m model) nextDifficulty(d float64, g Rating) float64 {
	delta := -m.w[6] * float64(g-3)
	damped := d + delta*(10-d)/9 // changes shrink as D approaches 10
	return clampDifficulty(m.w[7]*m.initDifficultyRaw(Easy) + (1-m.w[7])*damped)
}

// recallStability is S after a successful review (G >= 2) at retrievability r.
func (m model) recallStability(d, s, r float64, g Rating) float64 {
	mult := 1.0
	switch g {
	case Hard:
		mult = m.w[15]
	case Easy:
		mult = m.w[16]
	}
	inc := math.Exp(m.w[8]) * (11 - d) * math.Pow(s, -m.w[9]) * (math.Exp(m.w[10]*(1-r)) - 1) * mult
	return clampStability(s * (1 + inc))
}

// forgetStability is S after a lapse; it never exceeds what a same-day Again would give.
func (m model) forgetStability(d, s, r float64) float64 {
	long := m.w[11] * math.Pow(d, -m.w[12]) * (math.Pow(s+1, m.w[13]) - 1) * math.Exp(m.w[14]*(1-r))
	short := s / math.Exp(m.w[17]*m.w[18])
	return clampStability(math.Min(long, short))
}

// shortTermStability is S after a review on the same day as the previous one (t = 0),
// where R is still ~1 and the long-term formulas would barely move S.
func (m model) shortTermStability(s float64, g Rating) float64 {
	inc := math.Exp(m.w[17]*(float64(g)-3+m.w[18])) * math.Pow(s, -m.w[19])
	if g >= Hard {
		inc = math.Max(inc, 1)
	}
	return clampStability(s * inc)
}

func clampStability(s float64) float64 {
	if math.IsNaN(s) {
		return minStability
	}
	return math.Min(math.Max(s, minStability), maxStability)
}

func clampDifficulty(d float64) float64 {
	if math.IsNaN(d) {
		return maxDifficulty
	}
	return math.Min(math.Max(d, minDifficulty), maxDifficulty)
}
