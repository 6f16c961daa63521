package server

import (
	"context"
	"slices"
	"time"
	"weak"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
)

// queueView is what the study and home pages show of a queue: its counts, the card to show
// now (nil when the session is over) and when something next becomes due.
type queueView struct {
	learning, review, new int
	next                  *deck.Card
	nextAt                time.Time
}

// queueFor returns the user's card states and their queue over cards at now. The queue is
// kept with the user's progress (store.ProgressMemo) and used again while nothing it was
// built from changed: the same cards, limits and zone, no answer since (an answer drops the
// user's progress), and a moment before the queue's Until. Otherwise a deck of 1,000 studied
// cards costs a walk over the deck on every study and home page.
func (s *Server) queueFor(ctx context.Context, u *store.User, cards []*deck.Card, now time.Time) (queueView, srs.States, error) {
	memo, ticket := s.db.ProgressMemo(u.ID) // before the reads the queue is built from
	states, err := s.db.CardStates(ctx, u.ID)
	if err != nil {
		return queueView{}, srs.States{}, err
	}
	loc := userLocation(u)
	today := study.DayStart(study.Day(now, loc), loc)
	newToday, err := s.db.NewIntroducedSince(ctx, u.ID, today)
	if err != nil {
		return queueView{}, srs.States{}, err
	}
	in := study.QueueInput{Cards: cards, States: states, Now: now, Loc: loc, NewLimit: u.Settings.NewPerDay, NewToday: newToday}
	if m, ok := memo.(*queueMemo); ok && m.fits(in) {
		v := m.view
		if m.nextIdx >= 0 {
			v.next = cards[m.nextIdx]
		}
		return v, states, nil
	}
	q := study.BuildQueue(in)
	m := &queueMemo{cards: scopeOf(cards), nCards: len(cards), loc: loc, newLimit: in.NewLimit, newToday: newToday,
		from: now, until: q.Until, nextIdx: -1,
		view: queueView{learning: len(q.Learning), review: len(q.Review), new: len(q.New), nextAt: q.NextAt}}
	v := m.view
	if v.next = q.Next(); v.next != nil {
		m.nextIdx = slices.Index(cards, v.next)
	}
	s.db.KeepProgressMemo(u.ID, ticket, m, 1)
	return v, states, nil
}

// queueMemo is a queue's view with what it was built from, but the states (kept by the store
// with the same progress) and the moment (any from `from` to `until` will do). It holds no
// card: the next one is an index into the candidates, so a memo outliving a deck reload keeps
// no old deck alive.
type queueMemo struct {
	// The candidates: the slice of a deck's or a topic's cards, fixed per deck (a tag's list is
	// made per request, so it never matches). Weak, and compared by identity: a later deck's
	// slice at a reused address compares unequal.
	cards              weak.Pointer[*deck.Card]
	nCards             int
	loc                *time.Location
	newLimit, newToday int
	from, until        time.Time
	view               queueView // next nil: see nextIdx
	nextIdx            int       // -1: none
}

func scopeOf(cards []*deck.Card) weak.Pointer[*deck.Card] {
	if len(cards) == 0 {
		return weak.Pointer[*deck.Card]{}
	}
	return weak.Make(&cards[0])
}

func (m *queueMemo) fits(in study.QueueInput) bool {
	return m.nCards == len(in.Cards) && m.cards == scopeOf(in.Cards) && m.loc == in.Loc &&
		m.newLimit == in.NewLimit && m.newToday == in.NewToday && !in.Now.Before(m.from) && in.Now.Before(m.until)
}
