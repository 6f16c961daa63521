package anki

import (
	"fmt"
	"sync"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
)

// StageTTL is how long a previewed import waits for its save.
const StageTTL = 30 * time.Minute

// Stage is one previewed import: converted and checked, waiting for its save.
type Stage struct {
	Token    string // names the preview for its save; set when it is kept
	At       time.Time
	Name     string // the uploaded file's
	Cards    []Staged
	Media    []Media
	Existing []string // "id (file)": cards the deck has already, left out
	Refused  []string // "id: problem": notes that make no valid card
}

// Staged is a card the import would save (its text parses), with the importing user's history
// replayed. The parsed card is not kept: a stage waits in memory for its save.
type Staged struct {
	Imported
	State   srs.Card   // after History
	History []Replayed // empty without usable history
}

// NewStage converts p for deck d: every card that parses and is new to d, with its Anki
// history (the first Anki card of its note) replayed through sc in loc.
func NewStage(p *Package, name string, d *deck.Deck, sc srs.Scheduler, loc *time.Location, now time.Time) *Stage {
	cards, media := Convert(p)
	st := &Stage{At: now, Name: name, Media: media}
	revs := map[int64][]Review{}
	for _, r := range p.Revlog {
		revs[r.CardID] = append(revs[r.CardID], r)
	}
	for _, c := range cards {
		if _, errs := deck.Parse(c.Path, c.Markdown); len(errs) > 0 {
			st.Refused = append(st.Refused, fmt.Sprintf("%s: %s", c.ID, errs[0].Msg))
			continue
		}
		if old, ok := d.Card(c.ID); ok {
			st.Existing = append(st.Existing, fmt.Sprintf("%s (%s)", c.ID, old.File))
			continue
		}
		s := Staged{Imported: c}
		if len(c.AnkiCards) > 0 {
			s.State, s.History = Replay(sc, c.ID, revs[c.AnkiCards[0]], loc)
		}
		st.Cards = append(st.Cards, s)
	}
	return st
}

// Stages keeps at most one previewed import per user, for StageTTL.
type Stages struct {
	mu sync.Mutex
	m  map[int64]*Stage
}

// Put keeps st as userID's previewed import, in place of any other.
func (a *Stages) Put(userID int64, st *Stage) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[int64]*Stage{}
	}
	for id, old := range a.m { // expired previews are dropped whenever a new one comes
		if st.At.Sub(old.At) > StageTTL {
			delete(a.m, id)
		}
	}
	a.m[userID] = st
}

// Take removes and returns the user's previewed import if token names it and it is fresh.
func (a *Stages) Take(userID int64, token string, now time.Time) *Stage {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.m[userID]
	if st == nil || st.Token != token || now.Sub(st.At) > StageTTL {
		return nil
	}
	delete(a.m, userID)
	return st
}

// Image is an image of the user's fresh previewed import, by hash.
func (a *Stages) Image(userID int64, hash string, now time.Time) (Media, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := a.m[userID]
	if st == nil || now.Sub(st.At) > StageTTL {
		return Media{}, false
	}
	for _, m := range st.Media {
		if m.Hash == hash {
			return m, true
		}
	}
	return Media{}, false
}
