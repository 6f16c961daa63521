package srs

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// Answer is one answer in a learner's history, the optimizer's input.
type Answer struct {
	CardID string
	Time   time.Time
	Rating Rating
}

// Probabilities are kept off 0 and 1 so one confident wrong prediction costs a large but finite
// loss, as in fsrs-rs.
const (
	minProb = 1e-7
	maxProb = 1 - 1e-7
)

// reviewLog is a history arranged for repeated loss evaluation: every card's answers in time
// order, flattened. A card's first answer sets its initial memory; every later answer on a
// different day (t ≥ 1) is a prediction the model is scored on.
type reviewLog struct {
	ratings []Rating
	days    []float64 // whole days since the card's previous answer (0 for its first)
	weights []float64 // weight of the answer in the loss; 0 when it is not scored
	cards   []span    // each card's answers are ratings[start:end]
	targets int       // answers with t ≥ 1 after the first
}

type span struct{ start, end int }

// ErrNoHistory is returned when a log has no answer the model could be scored on: every card
// was answered only once or only on one day.
var ErrNoHistory = errors.New("srs: no card was reviewed on two different days")

// newReviewLog groups reviews by card and orders each card's answers by time. recency weights
// the later half of the history more, as fsrs-rs does, since a learner's memory drifts; with it
// off every scored answer weighs 1.
func newReviewLog(reviews []Answer, recency bool) (*reviewLog, error) {
	for i, r := range reviews {
		if !r.Rating.Valid() {
			return nil, fmt.Errorf("srs: review %d: rating %d, want 1 (again) to 4 (easy)", i+1, r.Rating)
		}
	}
	sorted := slices.Clone(reviews)
	slices.SortStableFunc(sorted, func(a, b Answer) int {
		if c := cmp.Compare(a.CardID, b.CardID); c != 0 {
			return c
		}
		return a.Time.Compare(b.Time)
	})
	l := &reviewLog{
		ratings: make([]Rating, len(sorted)),
		days:    make([]float64, len(sorted)),
		weights: make([]float64, len(sorted)),
	}
	var scored []int // indexes of scored answers, for the recency ranks
	for i, r := range sorted {
		l.ratings[i] = r.Rating
		if i == 0 || sorted[i-1].CardID != r.CardID {
			l.cards = append(l.cards, span{start: i})
			continue
		}
		t, _ := elapsedDays(sorted[i-1].Time, r.Time)
		if t >= 1 {
			l.days[i] = float64(t)
			l.weights[i] = 1
			scored = append(scored, i)
		}
	}
	for i := range l.cards {
		if i+1 < len(l.cards) {
			l.cards[i].end = l.cards[i+1].start
		} else {
			l.cards[i].end = len(sorted)
		}
	}
	l.targets = len(scored)
	if l.targets == 0 {
		return nil, ErrNoHistory
	}
	if recency {
		slices.SortStableFunc(scored, func(a, b int) int { return sorted[a].Time.Compare(sorted[b].Time) })
		n := math.Max(float64(len(scored)-1), 1)
		for rank, i := range scored {
			x := float64(rank) / n
			l.weights[i] = 0.25 + 0.75*x*x*x
		}
	}
	return l, nil
}

// cardLoss replays one card's answers under model m and returns the summed weighted binary
// cross-entropy of its scored answers and the sum of their weights.
func (l *reviewLog) cardLoss(m *model, c span) (loss, weight float64) {
	first := l.ratings[c.start]
	s, d := m.initStability(first), m.initDifficulty(first)
	for i := c.start + 1; i < c.end; i++ {
		g := l.ratings[i]
		t := l.days[i]
		if t < 1 {
			s = m.shortTermStability(s, g)
		} else {
			r := m.retrievability(t, s)
			if w := l.weights[i]; w > 0 {
				p := math.Min(math.Max(r, minProb), maxProb)
				if g == Again {
					loss -= w * math.Log(1-p)
				} else {
					loss -= w * math.Log(p)
				}
				weight += w
			}
			if g == Again {
				s = m.forgetStability(d, s, r)
			} else {
				s = m.recallStability(d, s, r, g)
			}
		}
		d = m.nextDifficulty(d, g)
	}
	return loss, weight
}

// loss is the summed weighted loss and weight over the given cards.
func (l *reviewLog) loss(w [21]float64, cards []span) (loss, weight float64) {
	m := newModel(w)
	for _, c := range cards {
		a, b := l.cardLoss(&m, c)
		loss += a
		weight += b
	}
	return loss, weight
}

// LogLoss is the mean binary cross-entropy of parameters w's recall predictions over every
// answer in reviews given at least a day after the card's previous one (the answers FSRS
// predicts), with n the number of such answers. Again counts as forgotten, the rest as
// recalled.
func LogLoss(w [21]float64, reviews []Answer) (loss float64, n int, err error) {
	l, err := newReviewLog(reviews, false)
	if err != nil {
		return 0, 0, err
	}
	sum, weight := l.loss(w, l.cards)
	return sum / weight, l.targets, nil
}

// SplitByCard sets about one card in n aside (chosen by a hash of its id, so the same card
// always falls on the same side) and returns the answers of the rest and of those set aside:
// a fit learns from the first and is judged on the second, answers it has not seen.
func SplitByCard(answers []Answer, n int) (fit, held []Answer) {
	for _, a := range answers {
		if n > 1 && splitmix(fuzzKey(a.CardID))%uint64(n) == 0 {
			held = append(held, a)
		} else {
			fit = append(fit, a)
		}
	}
	return fit, held
}
