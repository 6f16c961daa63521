package srs

import (
	"hash/maphash"
	"iter"
	"math"
	"slices"
	"time"
)

// States is a read-only set of card states by card id, as a user's stored progress: most pages
// build one from a user's thousand-odd rows, so it is laid out to be small and free of pointers
// the collector would scan. A map[string]Card of 1,000 states costs some 260 bytes a state
// (a 112-byte slot, slots rounded up to a power of two, and the id's own allocation); here a
// state is a 48-byte record, its id's bytes in one shared string, a 4-byte offset and 8 to
// 16 bytes of hash index: about 70 bytes with 8-byte ids. Get returns exactly the Card that
// was added, location included. The zero value is empty; a States is safe to share between
// goroutines.
type States struct{ t *statesTable }

type statesTable struct {
	ids   string   // every id, one after another
	offs  []uint32 // record i's id is ids[offs[i]:offs[i+1]] (so ids stay under 4 GiB)
	recs  []packedCard
	extra []Card   // the states that do not pack exactly (see pack), in order
	slots []uint32 // open addressing, a power of two at most half full: 1 + record index, 0 free
	n     int      // distinct ids
}

// packedCard is a Card with its times as Unix milliseconds (0 for the zero time), read back
// as UTC: the form the database stores, so every state read from it packs. A Card that would
// not come back equal is kept whole in extra, and its record's state is extraState with reps
// its index there.
type packedCard struct {
	due, last             int64
	stability, difficulty float64
	reps, lapses, step    int32
	state                 uint8
}

const extraState = math.MaxUint8

// statesSeed only places ids in the hash index (and so orders All), as a map's seed does.
var statesSeed = maphash.MakeSeed()

func pack(c Card) (packedCard, bool) {
	p := packedCard{due: UnixMS(c.Due), last: UnixMS(c.LastReview), stability: c.Stability,
		difficulty: c.Difficulty, reps: int32(c.Reps), lapses: int32(c.Lapses), step: int32(c.Step),
		state: uint8(c.State)}
	return p, p.state != extraState && p.unpack() == c
}

func (p *packedCard) unpack() Card {
	return Card{State: State(p.state), Step: int(p.step), Stability: p.stability, Difficulty: p.difficulty,
		Due: FromUnixMS(p.due), LastReview: FromUnixMS(p.last), Reps: int(p.reps), Lapses: int(p.lapses)}
}

// UnixMS is t as the database keeps it: Unix milliseconds, 0 for the zero time. The store
// writes and reads times with UnixMS and FromUnixMS, so a state read back always packs.
func UnixMS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// FromUnixMS is the time UnixMS gave ms for, in UTC.
func FromUnixMS(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// StatesBuilder collects states for a States; its zero value is ready to use.
type StatesBuilder struct {
	ids []byte
	t   statesTable
}

// Add adds the state of the card id; if the id was added before, this state replaces it.
func (b *StatesBuilder) Add(id string, c Card) {
	p, ok := pack(c)
	if !ok {
		p = packedCard{state: extraState, reps: int32(len(b.t.extra))}
		b.t.extra = append(b.t.extra, c)
	}
	b.ids = append(b.ids, id...)
	if b.t.offs == nil {
		b.t.offs = []uint32{0}
	}
	b.t.offs = append(b.t.offs, uint32(len(b.ids)))
	b.t.recs = append(b.t.recs, p)
}

// States returns what was added, and empties the builder.
func (b *StatesBuilder) States() States {
	t, ids := b.t, b.ids
	*b = StatesBuilder{}
	if len(t.recs) == 0 {
		return States{}
	}
	// Copies of exact length: a builder's slices have room to grow, which a kept States would hold.
	t.ids, t.offs, t.recs = string(ids), clone(t.offs), clone(t.recs)
	if t.extra != nil {
		t.extra = clone(t.extra)
	}
	size := 2
	for size < 2*len(t.recs) {
		size *= 2
	}
	t.slots = make([]uint32, size)
	for i := range t.recs {
		s, found := t.find(t.id(i))
		if !found {
			t.n++
		}
		t.slots[s] = uint32(i) + 1
	}
	return States{&t}
}

func clone[T any](s []T) []T { return append(make([]T, 0, len(s)), s...) }

// StatesOf returns the states in m.
func StatesOf(m map[string]Card) States {
	var b StatesBuilder
	for id, c := range m {
		b.Add(id, c)
	}
	return b.States()
}

func (t *statesTable) id(i int) string { return t.ids[t.offs[i]:t.offs[i+1]] }

func (t *statesTable) card(i int) Card {
	if p := &t.recs[i]; p.state != extraState {
		return p.unpack()
	}
	return t.extra[t.recs[i].reps]
}

// find returns the slot holding id, or the free slot where it belongs. The table is at most
// half full, so the probe meets a free slot.
func (t *statesTable) find(id string) (slot uint64, found bool) {
	mask := uint64(len(t.slots) - 1)
	for s := maphash.String(statesSeed, id) & mask; ; s = (s + 1) & mask {
		k := t.slots[s]
		if k == 0 {
			return s, false
		}
		if t.id(int(k-1)) == id {
			return s, true
		}
	}
}

// Get returns the state of the card id, and whether there is one.
func (s States) Get(id string) (Card, bool) {
	t := s.t
	if t == nil {
		return Card{}, false
	}
	// find's probe, written out: the queue calls Get for every card of the deck, and going
	// through find's slot cost 15-30 % more (BenchmarkStatesGet).
	mask := uint64(len(t.slots) - 1)
	for i := maphash.String(statesSeed, id) & mask; ; i = (i + 1) & mask {
		k := int(t.slots[i])
		if k == 0 {
			return Card{}, false
		}
		if t.id(k-1) == id {
			return t.card(k - 1), true
		}
	}
}

// Len returns the number of cards with a state.
func (s States) Len() int {
	if s.t == nil {
		return 0
	}
	return s.t.n
}

// All yields every card id with its state, in no particular order.
func (s States) All() iter.Seq2[string, Card] {
	return func(yield func(string, Card) bool) {
		if s.t == nil {
			return
		}
		for _, k := range s.t.slots {
			if k != 0 && !yield(s.t.id(int(k-1)), s.t.card(int(k-1))) {
				return
			}
		}
	}
}

// A Change is one card's new state, for With.
type Change struct {
	ID   string
	Card Card
}

// With returns the states with each change applied in order (a later change of the same id
// wins); s itself is unchanged. A user's cached progress takes the answers committed since it
// was read this way instead of being read again from the database: one copy of the records
// (48 bytes a state) with the ids and index shared, or a new build when an id is new.
func (s States) With(changes ...Change) States {
	if len(changes) == 0 {
		return s
	}
	t := s.t
	if t == nil || slices.ContainsFunc(changes, func(c Change) bool { _, found := t.find(c.ID); return !found }) {
		var b StatesBuilder
		for k, v := range s.All() {
			b.Add(k, v)
		}
		for _, c := range changes {
			b.Add(c.ID, c.Card)
		}
		return b.States()
	}
	n := *t
	n.recs = clone(t.recs)
	copied := false // extra, once a change needs it
	for _, c := range changes {
		slot, _ := t.find(c.ID)
		p, ok := pack(c.Card)
		if !ok {
			if !copied {
				n.extra, copied = clone(t.extra), true
			}
			n.extra = append(n.extra, c.Card)
			p = packedCard{state: extraState, reps: int32(len(n.extra) - 1)}
		}
		n.recs[t.slots[slot]-1] = p
	}
	return States{&n}
}
