package study

import (
	"cmp"
	"slices"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
)

// LearnAhead lets a learning card due within this long be shown when nothing else is left, as
// Anki does, rather than ending the session for a card due in a few minutes.
const LearnAhead = 20 * time.Minute

// QueueInput is everything the study queue depends on; building it is pure.
type QueueInput struct {
	Cards    []*deck.Card // candidates in deck order (already filtered by topic or tag)
	States   srs.States   // the user's stored states by card id
	Now      time.Time
	Loc      *time.Location // the user's time zone
	NewLimit int            // new cards per day
	NewToday int            // new cards already introduced this study day
	// Suspended cards are left out of the queue whatever their state.
	Suspended map[string]bool
}

// Queue is what is left to study now, each part in the order it is shown.
type Queue struct {
	Learning []*deck.Card // learning and relearning cards due now, by due time
	Review   []*deck.Card // review cards due by the end of the study day, by due time
	New      []*deck.Card // new cards in deck order, within the day's remaining limit
	// NextAt is when something next becomes due (zero when nothing ever will): shown once the
	// queue is empty.
	NextAt time.Time
	// Until is the first moment the queue can differ from this one for the same input but a
	// later Now: a card falling due or into the learn-ahead window, or the study day's end.
	// Before it, a caller may keep the queue rather than build it again.
	Until time.Time
}

// Next returns the card to show now, or nil when the session is over.
func (q Queue) Next() *deck.Card {
	for _, part := range [][]*deck.Card{q.Learning, q.Review, q.New} {
		if len(part) > 0 {
			return part[0]
		}
	}
	return nil
}

// IsDue reports whether a stored card belongs in today's queue: a learning card due now, or a
// review card due before the study day ends.
func IsDue(c srs.Card, now, end time.Time) bool {
	switch c.State {
	case srs.Learning, srs.Relearning:
		return !c.Due.After(now)
	case srs.Review:
		return c.Due.Before(end)
	}
	return false
}

// BuildQueue sorts the candidate cards into what is due now, in the order they are shown.
func BuildQueue(in QueueInput) Queue {
	var q Queue
	if len(in.Suspended) > 0 {
		kept := make([]*deck.Card, 0, len(in.Cards))
		for _, c := range in.Cards {
			if !in.Suspended[c.ID] {
				kept = append(kept, c)
			}
		}
		in.Cards = kept
	}
	end := DayEnd(in.Now, in.Loc)
	newLeft := max(in.NewLimit-in.NewToday, 0)
	q.Until = end
	if in.States.Len() == 0 { // nothing studied yet: every card is new, and the loop below finds only that
		if n := min(newLeft, len(in.Cards)); n > 0 {
			q.New = in.Cards[:n:n] // shared, read-only like the rest of the queue; appending copies
		} else if len(in.Cards) > 0 && in.NewLimit > 0 {
			q.NextAt = end // tomorrow's allowance
		}
		return q
	}
	// Due cards are kept with their due times so that sorting them reads no map.
	var learning, review, ahead []dueCard // ahead: learning cards due soon, used only if nothing else is left
	var next time.Time
	later := func(t time.Time) {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	for i, c := range in.Cards {
		st, seen := in.States.Get(c.ID)
		switch {
		case !seen || st.State == srs.New:
			if len(q.New) < newLeft {
				q.New = append(q.New, c)
			} else if in.NewLimit > 0 {
				later(end) // tomorrow's allowance
			}
		case IsDue(st, in.Now, end):
			if st.State == srs.Review {
				review = append(review, due(i, st.Due))
			} else {
				learning = append(learning, due(i, st.Due))
			}
		case st.State == srs.Review:
			// A review card becomes due when the study day holding its due time begins.
			later(DayStart(Day(st.Due, in.Loc), in.Loc))
		default:
			if st.Due.Sub(in.Now) <= LearnAhead {
				ahead = append(ahead, due(i, st.Due))
			} else if at := st.Due.Add(-LearnAhead); at.Before(q.Until) {
				q.Until = at // it comes into the learn-ahead window then
			}
			later(st.Due)
		}
	}
	if !next.IsZero() && next.Before(q.Until) {
		q.Until = next
	}
	q.Learning, q.Review = byDue(in.Cards, learning), byDue(in.Cards, review)
	if q.Next() == nil && len(ahead) > 0 {
		q.Learning = byDue(in.Cards, ahead)
	}
	if q.Next() == nil {
		q.NextAt = next
	}
	return q
}

// dueCard is a candidate's place in in.Cards and its due time, without pointers: sorting moves
// plain words (no write barriers) and the index breaks ties, as a stable sort would.
type dueCard struct {
	sec  int64
	nsec int32
	i    int32
}

func due(i int, t time.Time) dueCard { return dueCard{t.Unix(), int32(t.Nanosecond()), int32(i)} }

// byDue returns the cards sorted by due time, cards due together in deck order.
func byDue(cards []*deck.Card, cs []dueCard) []*deck.Card {
	if len(cs) == 0 {
		return nil
	}
	slices.SortFunc(cs, func(a, b dueCard) int {
		return cmp.Or(cmp.Compare(a.sec, b.sec), cmp.Compare(a.nsec, b.nsec), cmp.Compare(a.i, b.i))
	})
	out := make([]*deck.Card, len(cs))
	for k, c := range cs {
		out[k] = cards[c.i]
	}
	return out
}
