package store

import (
	"sync"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// Every signed-in card page and study page read the user's own progress: the card states, one
// card's answers and recordings, the new cards introduced today, the answer an undo would take
// back. Those rows change only through this package's writes, so they are kept in memory once
// read: each write of a user's answers or recordings drops that user's entry after it commits
// and before it returns (reviewbatch.go, study.go, recordings.go), and a read that raced a write
// is not stored. A page therefore never shows less than what its user's last acknowledged write
// changed. Only another process writing the same file would go unseen, and none does: the
// `rehearse` commands touch accounts, never progress.

// progressWeightMax bounds the cache by the rows it holds (card states, answers, recordings:
// 100 users who each studied 1,000 cards). A card state takes about 70 bytes in its user's
// srs.States (measured by TestCachedStatesAreCompact with bench/run.sh's 8-byte ids: a 48-byte
// record, the id, its offset and the hash index; a map[string]srs.Card took 260), so the bound
// is some 7 MB of heap at most, with no pointer in it for the collector to follow. Past it,
// other users' entries are forgotten until the new rows fit. At 50,000 rows, with the whole
// cache dropped when full, 50 users with 1,000 studied cards each emptied it on every few
// requests: /study fell to ~450 req/s in bench/run.sh's run after the ratings.
const progressWeightMax = 100_000

// progressCardsMax bounds the cards kept per user for the card page; past it they start again.
const progressCardsMax = 128

// progressUsersMax bounds the users kept; past it the cache starts again empty.
const progressUsersMax = 4096

type progressCache struct {
	mu     sync.Mutex
	epoch  uint64 // bumped when everything is dropped: older tickets are void
	weight int
	users  map[int64]*userProgress
}

// userProgress is what is known of one user; a nil or unset field is not loaded yet.
type userProgress struct {
	gen    uint64 // bumped by each write of the user's progress
	weight int

	states     srs.States // every card state
	haveStates bool
	pending    []srs.Change // answers committed since states was read, applied by the next read
	cards      map[string]CardProgress

	newSince time.Time // newCount counts the new cards introduced since newSince
	newCount int
	haveNew  bool

	last     Review // the answer UndoLast would undo
	lastErr  error  // nil or ErrNotFound
	haveLast bool

	memo     any // what a caller worked out from this progress (KeepProgressMemo)
	memoRows int // its weight
}

// progressTicket names the state of an entry a read saw; a store with an outdated one is dropped.
type progressTicket struct{ epoch, gen uint64 }

// view runs fn on the user's entry (created empty if absent) and returns the ticket a store of
// what the caller then loads must present.
func (c *progressCache) view(userID int64, fn func(*userProgress)) progressTicket {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.users[userID]
	if u == nil {
		if c.users == nil || len(c.users) >= progressUsersMax {
			c.epoch++
			c.users, c.weight = map[int64]*userProgress{}, 0
		}
		u = &userProgress{}
		c.users[userID] = u
	}
	fn(u)
	return progressTicket{c.epoch, u.gen}
}

// store runs fn on the user's entry, with the rows it adds, unless the entry was written or
// dropped since t was issued.
func (c *progressCache) store(userID int64, t progressTicket, rows int, fn func(*userProgress)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.users[userID]
	if u == nil || t.epoch != c.epoch || t.gen != u.gen {
		return
	}
	if c.weight+rows > progressWeightMax && !c.makeRoom(userID, rows) {
		return
	}
	fn(u)
	u.weight += rows
	c.weight += rows
}

// makeRoom forgets other users until rows more fit, and reports whether they do. The victims
// come in map order, which is arbitrary: readers cycling over more users than fit then still
// hit mostly, where least-recently-used would miss every time. Forgetting voids every ticket
// issued so far, so a read that began before cannot store into an entry made after.
func (c *progressCache) makeRoom(userID int64, rows int) bool {
	c.epoch++
	for id, o := range c.users {
		if c.weight+rows <= progressWeightMax {
			break
		}
		if id != userID {
			c.weight -= o.weight
			delete(c.users, id)
		}
	}
	return c.weight+rows <= progressWeightMax
}

// drop forgets what is known of the user's progress; call it after a write of it commits.
func (c *progressCache) drop(userID int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if u := c.users[userID]; u != nil {
		c.weight -= u.weight
		*u = userProgress{gen: u.gen + 1}
	}
}

// answered records a committed answer: like drop, except that loaded card states are kept and
// the card's new state is noted beside them, applied (srs.States.With) by the next read rather
// than here on the writer's goroutine, so answers nobody reads after cost no copy. A study page
// after an answer, for a user with 1,000 studied cards, had spent most of its 10 ms reading them
// all again.
func (c *progressCache) answered(userID int64, cardID string, after srs.Card) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.users[userID]
	if u == nil {
		return
	}
	states, pending, had := u.states, u.pending, u.haveStates
	c.weight -= u.weight
	*u = userProgress{gen: u.gen + 1}
	if had && len(pending) < maxPendingStates && c.weight+states.Len()+len(pending)+1 <= progressWeightMax {
		u.states, u.pending, u.haveStates = states, append(pending, srs.Change{ID: cardID, Card: after}), true
		u.weight = states.Len() + len(u.pending)
		c.weight += u.weight
	}
}

// maxPendingStates bounds the answers noted beside a user's states: past it they are read again.
const maxPendingStates = 256

// cachedStates is the user's card states if loaded, with the answers noted since applied.
func (c *progressCache) cachedStates(userID int64) (m srs.States, ok bool, t progressTicket) {
	t = c.view(userID, func(u *userProgress) {
		if len(u.pending) > 0 { // the states stay what the database holds: apply them once
			n := u.states.Len()
			u.states = u.states.With(u.pending...)
			w := u.states.Len() - n - len(u.pending) // the rows weighed: a state each, no longer a note each
			u.weight += w
			c.weight += w
			u.pending = nil
		}
		m, ok = u.states, u.haveStates
	})
	return m, ok, t
}

func (c *progressCache) putStates(userID int64, t progressTicket, m srs.States) {
	c.store(userID, t, m.Len(), func(u *userProgress) { u.states, u.pending, u.haveStates = m, nil, true })
}

func (c *progressCache) cachedCard(userID int64, cardID string) (p CardProgress, ok bool, t progressTicket) {
	t = c.view(userID, func(u *userProgress) { p, ok = u.cards[cardID] })
	return p, ok, t
}

func (c *progressCache) putCard(userID int64, t progressTicket, cardID string, p CardProgress) {
	c.store(userID, t, p.rows(), func(u *userProgress) {
		if u.cards == nil || len(u.cards) >= progressCardsMax {
			for _, old := range u.cards {
				u.weight -= old.rows()
				c.weight -= old.rows()
			}
			u.cards = map[string]CardProgress{}
		}
		u.cards[cardID] = p
	})
}

// keepCardMemo attaches v to the card's cached progress, in place of any memo before it. Its
// weight was counted when the progress was stored (rows).
func (c *progressCache) keepCardMemo(userID int64, t progressTicket, cardID string, v any) {
	c.store(userID, t, 0, func(u *userProgress) {
		if p, ok := u.cards[cardID]; ok {
			p.memo = v
			u.cards[cardID] = p
		}
	})
}

func (c *progressCache) cachedNew(userID int64, since time.Time) (n int, ok bool, t progressTicket) {
	t = c.view(userID, func(u *userProgress) {
		n, ok = u.newCount, u.haveNew && u.newSince.Equal(since)
	})
	return n, ok, t
}

func (c *progressCache) putNew(userID int64, t progressTicket, since time.Time, n int) {
	c.store(userID, t, 0, func(u *userProgress) { u.newSince, u.newCount, u.haveNew = since, n, true })
}

func (c *progressCache) cachedLast(userID int64) (v Review, err error, ok bool, t progressTicket) {
	t = c.view(userID, func(u *userProgress) { v, err, ok = u.last, u.lastErr, u.haveLast })
	return v, err, ok, t
}

func (c *progressCache) putLast(userID int64, t progressTicket, v Review, err error) {
	c.store(userID, t, 1, func(u *userProgress) { u.last, u.lastErr, u.haveLast = v, err, true })
}

// rows weighs a card's progress in the cache's bound: its rows, and as many again for the memo
// its one reader, the card page, keeps with it (its wording of them: KeepCardProgressMemo).
func (p CardProgress) rows() int { return 2 * (1 + len(p.History) + len(p.Recordings)) }

// ProgressTicket is the state of a user's progress when a caller looked at it: a value the
// caller then works out from reads made after taking it can be kept with KeepProgressMemo.
type ProgressTicket struct{ t progressTicket }

// ProgressMemo returns the value kept with the user's progress, or nil, and a ticket for
// keeping a new one. Take the ticket before reading what the value is worked out from.
func (db *DB) ProgressMemo(userID int64) (any, ProgressTicket) {
	var v any
	t := db.progress.view(userID, func(u *userProgress) { v = u.memo })
	return v, ProgressTicket{t}
}

// KeepProgressMemo keeps v with the user's progress, weighing rows in the cache's bound, until
// the progress next changes. It keeps nothing if the progress changed since t was taken.
func (db *DB) KeepProgressMemo(userID int64, t ProgressTicket, v any, rows int) {
	c := &db.progress
	c.store(userID, t.t, rows, func(u *userProgress) {
		u.weight -= u.memoRows // the value replaced (store adds the new rows after)
		c.weight -= u.memoRows
		u.memo, u.memoRows = v, rows
	})
}
