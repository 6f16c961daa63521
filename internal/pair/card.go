package pair

import (
	"crypto/rand"
	"encoding/base64"
	"math/big"
	"strconv"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
)

// DefaultTarget is the clock when a card has no go-deeper timing.
const DefaultTarget = 2 * time.Minute

// MaxNotes is how many bytes of the interviewer's notes are kept.
const MaxNotes = 4000

// Card is the card chosen by id for a session, or a random one with a rubric when id is empty.
// Plain cards have no rubric to interview with, so they are never chosen.
func Card(d *deck.Deck, id string) (*deck.Card, bool) {
	if id != "" {
		c, ok := d.Card(id)
		return c, ok && !c.Plain
	}
	var pool []*deck.Card
	for _, c := range d.Cards {
		if !c.Plain {
			pool = append(pool, c)
		}
	}
	if len(pool) == 0 {
		return nil, false
	}
	n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(pool))))
	return pool[n.Int64()], true
}

// Target is a session's clock for c: its go-deeper target.
func Target(c *deck.Card) time.Duration {
	if c.Timing.Deeper <= 0 {
		return DefaultTarget
	}
	return c.Timing.Deeper
}

// NewCode is a session's code: its URL, unguessable.
func NewCode() string {
	b := make([]byte, 12)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ReadResult reads the result form: the level (-1 when unreadable), the pitfalls ticked (-1 for
// one unreadable, so Finish refuses it) and the notes, cut to MaxNotes.
func ReadResult(level string, pitfalls []string, notes string) (int, []int, string) {
	lv, err := strconv.Atoi(level)
	if err != nil {
		lv = -1
	}
	hit := make([]int, 0, len(pitfalls))
	for _, v := range pitfalls {
		i, err := strconv.Atoi(v)
		if err != nil {
			i = -1
		}
		hit = append(hit, i)
	}
	if len(notes) > MaxNotes {
		notes = notes[:MaxNotes]
	}
	return lv, hit, notes
}

// Other is the role across the table.
func (r Role) Other() Role {
	if r == Candidate {
		return Interviewer
	}
	return Candidate
}

// UserOf is the user taking part in role r.
func (s Session) UserOf(r Role) int64 {
	if r == Candidate {
		return s.Candidate
	}
	return s.Interviewer
}
