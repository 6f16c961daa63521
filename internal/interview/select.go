package interview

import (
	"cmp"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
)

// MaxQuestions bounds a session's length.
const MaxQuestions = 20

// Options chooses a session's questions.
type Options struct {
	N      int      // questions wanted, 1..MaxQuestions
	Topics []string // topic names; empty means every topic
	Tags   []string // a card qualifies when it has any of these; empty means any card
	// Seeded sets use a shuffle of the filtered deck driven by Seed alone, ignoring the
	// user's data, so everyone given the same seed and filters gets the same questions.
	Seeded bool
	Seed   uint64
	// Scheduler computes retrievability for unseeded sets; the zero value means the defaults.
	Scheduler srs.Scheduler
}

// ErrNoCards is returned when the filters leave nothing to ask.
var ErrNoCards = errors.New("no card matches the chosen topics and tags")

// newCardWeakness ranks a never-reviewed card after clearly weak, lapsed or overdue cards and
// before well-known ones: a mock rehearses what is shaky before what was never studied.
const newCardWeakness = 0.25

// Weakness is how much a card needs rehearsing, higher first:
//
//	(1 − retrievability) + 0.1 per lapse (up to 5) + 0.5 × overdue fraction
//
// where the overdue fraction is the time past due over the last interval, capped at 1. A card
// never reviewed scores 0.25.
func Weakness(s srs.Scheduler, c srs.Card, now time.Time) float64 {
	if c.State == srs.New || c.LastReview.IsZero() {
		return newCardWeakness
	}
	w := 1 - s.Retrievability(c, now)
	w += 0.1 * float64(min(c.Lapses, 5))
	if ivl := c.Due.Sub(c.LastReview); ivl > 0 && now.After(c.Due) {
		w += 0.5 * min(float64(now.Sub(c.Due))/float64(ivl), 1)
	}
	return w
}

// Select picks up to opts.N distinct cards from cards (in deck order) that pass the filters.
// Unseeded: the weakest first by Weakness over the user's states, ties in deck order. Seeded:
// a shuffle of the filtered cards determined by Seed only (states are ignored).
func Select(cards []*deck.Card, states srs.States, now time.Time, opts Options) ([]*deck.Card, error) {
	if opts.N < 1 || opts.N > MaxQuestions {
		return nil, errors.New("the number of questions must be between 1 and 20")
	}
	pool := Filter(cards, opts.Topics, opts.Tags)
	if len(pool) == 0 {
		return nil, ErrNoCards
	}
	if opts.Seeded {
		r := rand.New(rand.NewPCG(opts.Seed, 0x6d6f636b)) // second word: "mock"
		r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	} else {
		s := opts.Scheduler
		if s.Params == ([21]float64{}) {
			s = srs.DefaultScheduler()
		}
		weak := make(map[string]float64, len(pool))
		for _, c := range pool {
			st, _ := states.Get(c.ID)
			weak[c.ID] = Weakness(s, st, now)
		}
		slices.SortStableFunc(pool, func(a, b *deck.Card) int { return cmp.Compare(weak[b.ID], weak[a.ID]) })
	}
	return pool[:min(opts.N, len(pool))], nil
}

// Filter returns the cards whose topic is in topics (when given) and that carry any of tags
// (when given), in their original order, without duplicates.
func Filter(cards []*deck.Card, topics, tags []string) []*deck.Card {
	var out []*deck.Card
	seen := map[string]bool{}
	for _, c := range cards {
		if seen[c.ID] {
			continue
		}
		if len(topics) > 0 && !slices.Contains(topics, c.Topic) {
			continue
		}
		if len(tags) > 0 && !slices.ContainsFunc(c.Tags, func(t string) bool { return slices.Contains(tags, t) }) {
			continue
		}
		seen[c.ID] = true
		out = append(out, c)
	}
	return out
}

// FollowUpIndex picks which of a card's n follow-ups a session asks: fixed by the seed and the
// card, so a shared seed also shares the follow-ups. It returns -1 when n is 0.
func FollowUpIndex(seed uint64, cardID string, n int) int {
	if n <= 0 {
		return -1
	}
	h := fnv.New64a()
	h.Write([]byte(cardID))
	return int(rand.New(rand.NewPCG(seed, h.Sum64())).IntN(n))
}
