package srs

import (
	"container/heap"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Learner is a simulated person whose memory follows FSRS-6 with weights Memory exactly, for
// checking that the optimizer recovers a memory it did not see. Cards are scheduled as the app
// would schedule them (Scheduler, usually the defaults), answered once a day from 09:00 in due
// order, Cards/NewPerDay of them introduced a day.
type Learner struct {
	Memory    [21]float64
	Scheduler Scheduler
	Cards     int
	NewPerDay int
	Days      int
	Seed      uint64
	Start     time.Time
}

// simCard is one card in a simulation: the app's view (sched) and the learner's true memory.
type simCard struct {
	id     string
	sched  Card
	memory Card
	index  int
}

type dueHeap []*simCard

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	if !h[i].sched.Due.Equal(h[j].sched.Due) {
		return h[i].sched.Due.Before(h[j].sched.Due)
	}
	return h[i].id < h[j].id
}
func (h dueHeap) Swap(i, j int)  { h[i], h[j] = h[j], h[i]; h[i].index, h[j].index = i, j }
func (h *dueHeap) Push(x any)    { c := x.(*simCard); c.index = len(*h); *h = append(*h, c) }
func (h *dueHeap) Pop() any      { old := *h; c := old[len(old)-1]; *h = old[:len(old)-1]; return c }
func (h dueHeap) peek() *simCard { return h[0] }

// Simulate returns the learner's answers in time order. The same Learner always gives the same
// log.
func (l Learner) Simulate() []Answer {
	rng := rand.New(rand.NewPCG(l.Seed, 0x1ea))
	memory := Scheduler{Params: l.Memory, DesiredRetention: 0.9, MaxInterval: 36500}
	m := newModel(l.Memory)
	start := l.Start
	if start.IsZero() {
		start = time.Date(2025, 1, 6, 0, 0, 0, 0, time.UTC)
	}
	var out []Answer
	h := &dueHeap{}
	introduced := 0
	for d := 0; d < l.Days; d++ {
		now := start.Add(time.Duration(d)*day + 9*time.Hour)
		end := start.Add(time.Duration(d)*day + 23*time.Hour)
		for k := 0; k < l.NewPerDay && introduced < l.Cards; k++ {
			heap.Push(h, &simCard{id: fmt.Sprintf("c%05d", introduced), sched: Card{Due: now}})
			introduced++
		}
		for h.Len() > 0 && !h.peek().sched.Due.After(end) {
			c := h.peek()
			if c.sched.Due.After(now) {
				now = c.sched.Due
			}
			g := l.answer(rng, m, c.memory, now)
			c.memory = memory.Review(c.memory, g, now)
			c.sched = l.Scheduler.ReviewCard(c.id, c.sched, g, now)
			heap.Fix(h, c.index)
			out = append(out, Answer{CardID: c.id, Time: now, Rating: g})
			now = now.Add(20 * time.Second)
		}
	}
	return out
}

// answer draws the learner's rating: recall with the true retrievability (whole days, as FSRS
// counts them, or the fraction of a day for a same-day repeat), then Hard, Good or Easy for a
// recall in a fixed mix. A new card's first rating is drawn from a fixed mix too.
func (l Learner) answer(rng *rand.Rand, m model, mem Card, now time.Time) Rating {
	u := rng.Float64()
	if mem.State == New {
		switch {
		case u < 0.25:
			return Again
		case u < 0.35:
			return Hard
		case u < 0.9:
			return Good
		}
		return Easy
	}
	elapsed := now.Sub(mem.LastReview)
	t := math.Floor(elapsed.Hours() / 24)
	if t < 1 {
		t = elapsed.Hours() / 24
	}
	if rng.Float64() >= m.retrievability(t, mem.Stability) {
		return Again
	}
	switch {
	case u < 0.12:
		return Hard
	case u < 0.92:
		return Good
	}
	return Easy
}
