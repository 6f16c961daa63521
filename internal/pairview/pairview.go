// Package pairview builds the pair-interview pages' view models from store, deck and pair
// values. It is pure: the server loads the values and renders what this returns.
package pairview

import (
	"strconv"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/pair"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Index is /pair for user me: the colleagues to choose from (the team but me), the cards with a
// rubric, and me's sessions (list) with the other person and, once it may be shown to me, the
// question.
func Index(me int64, team []*store.User, d *deck.Deck, list []*pair.Session, fe *views.FormError) views.PairIndex {
	names := map[int64]string{}
	v := views.PairIndex{Err: fe}
	for _, u := range team {
		names[u.ID] = u.Username
		if u.ID != me {
			v.Colleagues = append(v.Colleagues, views.PairOption{Value: strconv.FormatInt(u.ID, 10), Label: u.Username})
		}
	}
	for _, c := range d.Cards {
		if !c.Plain {
			v.Cards = append(v.Cards, views.PairOption{Value: c.ID, Label: c.Question})
		}
	}
	for _, p := range list {
		item := views.PairListItem{Code: p.Code, State: string(p.State), When: p.CreatedAt, Role: "you interviewed", With: names[p.Candidate]}
		if p.Candidate == me {
			item.Role, item.With = "you answered", names[p.Interviewer]
		}
		if c, ok := d.Card(p.CardID); ok && (p.State != pair.Waiting || p.Interviewer == me) {
			item.Question = c.Question
		} else {
			item.Question = "A question not shown yet"
		}
		v.Sessions = append(v.Sessions, item)
	}
	return v
}

// Live is what both screens show of the session at now: its state and clock, the other
// person's name (with), and the result once done.
func Live(sess *pair.Session, with string, now time.Time) views.PairLive {
	l := views.PairLive{Code: sess.Code, State: string(sess.State), With: with, TargetMS: sess.Target.Milliseconds(),
		UsedMS: sess.Used(now).Milliseconds()}
	if !sess.StartedAt.IsZero() {
		l.StartedMS = sess.StartedAt.UnixMilli()
	}
	if sess.State == pair.Done {
		l.Level, l.Hits, l.Notes = sess.Level, len(sess.PitfallsHit), sess.Notes
	}
	return l
}

// Candidate is the candidate's screen: only the question, and only once the clock runs; never
// the rubric.
func Candidate(sess *pair.Session, live views.PairLive, card *deck.Card) views.PairCandidate {
	v := views.PairCandidate{Live: live, Recorder: views.Recorder{CardID: card.ID, Mode: "study", Depth: "deeper", Target: sess.Target}}
	if sess.State != pair.Waiting {
		v.Question = card.Question
	}
	return v
}

// Interviewer is the interviewer's screen: the card's rubric, whether the candidate is there
// (here), and the pitfalls marked once done.
func Interviewer(sess *pair.Session, live views.PairLive, card *deck.Card, here bool, fe *views.FormError) views.PairInterviewer {
	v := views.PairInterviewer{Live: live, Card: card, Here: here, Err: fe, Pitfalls: make([]bool, len(card.Pitfalls))}
	for _, i := range sess.PitfallsHit {
		if i < len(v.Pitfalls) {
			v.Pitfalls[i] = true
		}
	}
	return v
}
