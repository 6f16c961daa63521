// Package cardwrite changes the cards stored in the app: a save, a removal or a batch is checked
// (the card alone with editor.Check, its simulation within the deck's card bound and its
// claims, then the whole deck with the change in place), stored in one transaction and the deck
// reloaded, one change at a time. The server's handlers decode a request, call one method here
// and word the outcome; what a change must pass lives in editor and deckload.
package cardwrite

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/store"
)

// ErrNotEditable: the running deck was not loaded with its files (a test deck in memory).
var ErrNotEditable = errors.New("this deck was not loaded from files, so its cards cannot be edited here")

// ErrLinked: removing the card would leave other cards linking to nothing.
var ErrLinked = errors.New("other cards link to this card")

// Store is what writing cards needs from storage (store.DB).
type Store interface {
	SaveDeckCard(ctx context.Context, c store.DeckCard, action string, userID int64, now time.Time) (int64, error)
	RemoveDeckCard(ctx context.Context, id, action string, userID int64, now time.Time) error
	ApplyDeckChanges(ctx context.Context, saves []store.DeckCard, removals []store.Removal, action string, userID int64, now time.Time) error
	ImportAnki(ctx context.Context, im store.AnkiImport, now time.Time) (withHistory int, err error)
}

// Deps are a Writer's dependencies, each named.
type Deps struct {
	Store Store
	// Loaded is the running deck with its files, nil when it has none; Reload loads it again
	// (the stored cards included) and swaps it in (deckload.Holder).
	Loaded func() *deckload.Loaded
	Reload func() error
	// CheckSim is the deck's simulation check for one card (deckload.CheckSim over the
	// caller's runner, which bounds and shares the runs); Expect runs the card's claims
	// (simulation.expect) and returns each failure at its line.
	CheckSim func(context.Context) func(*deck.Simulation) error
	Expect   func(context.Context, *deck.Simulation) deck.ErrorList
	Now      func() time.Time
}

// Writer applies card changes one at a time, each checked against the deck it changes.
type Writer struct {
	d  Deps
	mu sync.Mutex
}

// New returns a Writer over d.
func New(d Deps) *Writer { return &Writer{d: d} }

// Loaded is the running deck with its files, or nil when its cards cannot be edited.
func (w *Writer) Loaded() *deckload.Loaded { return w.d.Loaded() }

// Hold takes the writer's lock for a change made elsewhere (an import) and returns the deck as
// of holding it, or nil (the lock released) when the deck cannot be edited.
func (w *Writer) Hold() (*deckload.Loaded, func()) {
	w.mu.Lock()
	l := w.d.Loaded()
	if l == nil {
		w.mu.Unlock()
		return nil, func() {}
	}
	return l, w.mu.Unlock
}

// Reload loads the deck again after a change made elsewhere.
func (w *Writer) Reload() error { return w.d.Reload() }

// Text is a card's markdown as the running deck has it, and as its card file has it (nil when
// the card exists only in the app).
func Text(l *deckload.Loaded, file string) (current, bundled []byte) {
	current, _ = fs.ReadFile(l.Files, file)
	if l.Base != nil {
		bundled, _ = fs.ReadFile(l.Base, file)
	}
	return current, bundled
}

// Target says where card id is saved: its current file, or for a new card the given path,
// else the folder of its topic.
func Target(d *deck.Deck, id, wantPath, topic string) editor.Target {
	if c, ok := d.Card(id); ok {
		return editor.Target{Path: c.File, ID: id}
	}
	if wantPath != "" {
		return editor.Target{Path: wantPath}
	}
	folder := editor.FolderFor(d, topic)
	if folder == "" {
		folder = "imported"
	}
	return editor.Target{Path: path.Join(folder, id+".md")}
}

// checkAlone is editor.Check with the deck's simulation check, then the card's claims.
func (w *Writer) checkAlone(ctx context.Context, d *deck.Deck, t editor.Target, src []byte) (*deck.Card, deck.ErrorList) {
	c, errs := editor.Check(d, t, src, w.d.CheckSim(ctx))
	if len(errs) > 0 {
		return nil, errs
	}
	if failed := w.d.Expect(ctx, c.Sim); len(failed) > 0 {
		for i := range failed {
			failed[i].File = t.Path
		}
		return nil, failed
	}
	return c, nil
}

// Check checks src as the card at t: the card alone, then the whole deck with it in place,
// which catches what one card cannot show (a link to a card the deck lacks).
func (w *Writer) Check(ctx context.Context, l *deckload.Loaded, t editor.Target, src []byte) (*deck.Card, deck.ErrorList) {
	c, errs := w.checkAlone(ctx, l.Deck, t, src)
	if len(errs) > 0 {
		return nil, errs
	}
	return c, CheckDeckWith(l, map[string][]byte{t.Path: src})
}

// CheckDeckWith loads the running deck's files with changes laid over them (nil text: the
// file removed) and returns the problems. Simulations are not run again: each card's was
// checked when it was saved.
func CheckDeckWith(l *deckload.Loaded, changes map[string][]byte) deck.ErrorList {
	fsys, err := deckload.Overlay(l.Files, changes)
	if err != nil {
		return deck.ErrorList{{Msg: err.Error()}}
	}
	var list deck.ErrorList
	if _, err := deck.Load(fsys, deck.Options{}); errors.As(err, &list) {
		return list
	} else if err != nil {
		return deck.ErrorList{{Msg: err.Error()}}
	}
	return nil
}

// Outcome is what a save did.
type Outcome struct {
	Card      *deck.Card
	Created   bool // the id is new to the deck
	Unchanged bool // the text was already the card's
}

// Save checks src as the card at t and stores it as userID's (0: none), then swaps the new
// deck in. A card whose text equals its card file's drops the stored copy (a revert). errs
// lists every problem; the error is for failures that are not the card's fault.
func (w *Writer) Save(ctx context.Context, userID int64, t editor.Target, src []byte, action string) (Outcome, deck.ErrorList, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.d.Loaded()
	if l == nil {
		return Outcome{}, nil, ErrNotEditable
	}
	c, errs := w.Check(ctx, l, t, src)
	if len(errs) > 0 {
		return Outcome{}, errs, nil
	}
	_, existed := l.Deck.Card(c.ID)
	current, bundled := Text(l, t.Path)
	out := Outcome{Card: c, Created: !existed}
	switch {
	case existed && string(current) == string(src):
		out.Unchanged = true
		return out, nil, nil
	case bundled != nil && string(bundled) == string(src):
		if err := w.d.Store.RemoveDeckCard(ctx, c.ID, store.ActionRevert, userID, w.d.Now()); err != nil {
			return out, nil, err
		}
	default:
		if _, err := w.d.Store.SaveDeckCard(ctx, store.DeckCard{ID: c.ID, Path: t.Path, Markdown: string(src)}, action, userID, w.d.Now()); err != nil {
			return out, nil, err
		}
	}
	if err := w.d.Reload(); err != nil {
		return out, nil, err
	}
	if nl := w.d.Loaded(); nl != nil {
		for _, e := range nl.Skipped {
			if e.File == t.Path { // stored, but it clashes with the deck after all
				return out, deck.ErrorList{e}, nil
			}
		}
		nc, ok := nl.Deck.Card(c.ID)
		if !ok { // every check passed, yet the deck does not serve it: never report a save
			return out, nil, fmt.Errorf("card %s was stored but the reloaded deck does not hold it", c.ID)
		}
		out.Card = nc
	}
	return out, nil, nil
}

// Remove drops a card's stored text: a bundled card goes back to its file's text, a card
// written in the app is deleted. It reports which, store.ErrNotFound when nothing is stored,
// and ErrLinked (with the problems) when the deck would no longer load without it.
func (w *Writer) Remove(ctx context.Context, userID int64, id string) (reverted bool, problems deck.ErrorList, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.d.Loaded()
	if l == nil {
		return false, nil, ErrNotEditable
	}
	c, ok := l.Deck.Card(id)
	if !ok || !l.Stored[c.File] {
		return false, nil, store.ErrNotFound
	}
	_, bundled := Text(l, c.File)
	action := store.ActionDelete
	if bundled != nil {
		action = store.ActionRevert
	}
	if list := CheckDeckWith(l, map[string][]byte{c.File: bundled}); len(list) > 0 {
		return false, list, ErrLinked
	}
	if err := w.d.Store.RemoveDeckCard(ctx, id, action, userID, w.d.Now()); err != nil {
		return false, nil, err
	}
	return bundled != nil, nil, w.d.Reload()
}

// Put is one card of a batch: its path in the deck and its markdown.
type Put struct {
	Path     string `json:"path"`
	Markdown string `json:"markdown"`
}

// BatchResult lists the paths each change of a batch touched.
type BatchResult struct {
	Created   []string `json:"created"`
	Updated   []string `json:"updated"`
	Unchanged []string `json:"unchanged"`
	Deleted   []string `json:"deleted"`
	Reverted  []string `json:"reverted"`
}

// Changed reports whether the batch stored anything.
func (r BatchResult) Changed() bool {
	return len(r.Created)+len(r.Updated)+len(r.Deleted)+len(r.Reverted) > 0
}

// Batch checks every card alone and then the deck with all the changes at once, so cards that
// link to each other can arrive together; nothing is stored unless everything passes (the
// problems, sorted, otherwise). `rehearse deck push` sends these.
func (w *Writer) Batch(ctx context.Context, userID int64, puts []Put, deletes []string) (BatchResult, deck.ErrorList, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var res BatchResult
	l := w.d.Loaded()
	if l == nil {
		return res, nil, ErrNotEditable
	}
	d := l.Deck
	var problems deck.ErrorList
	changes := map[string][]byte{}
	var saves []store.DeckCard
	var removals []store.Removal
	seen := map[string]string{} // id -> path in this batch
	for i, p := range puts {
		src := []byte(strings.ReplaceAll(p.Markdown, "\r\n", "\n"))
		id := editor.IDOf(src)
		if prev, dup := seen[id]; dup && id != "" {
			problems = append(problems, deck.Error{File: p.Path, Line: editor.FrontMatterLine(src, "id"), Msg: fmt.Sprintf("duplicate id %q: also used by %s in this batch", id, prev)})
			continue
		}
		seen[id] = p.Path
		t := Target(d, id, p.Path, "")
		if c, ok := d.Card(id); ok && c.File != p.Path {
			problems = append(problems, deck.Error{File: p.Path, Line: editor.FrontMatterLine(src, "id"), Msg: fmt.Sprintf("id %q: the card lives at %s; moving a card is refused", id, c.File)})
			continue
		}
		if p.Path == "" {
			problems = append(problems, deck.Error{File: fmt.Sprintf("put[%d]", i), Msg: "path: give the card's path, e.g. 03-eager/" + id + ".md"})
			continue
		}
		c, errs := w.checkAlone(ctx, d, t, src)
		if len(errs) > 0 {
			problems = append(problems, errs...)
			continue
		}
		current, bundled := Text(l, t.Path)
		_, existed := d.Card(c.ID)
		switch {
		case existed && string(current) == string(src):
			res.Unchanged = append(res.Unchanged, t.Path)
			continue
		case bundled != nil && string(bundled) == string(src):
			removals = append(removals, store.Removal{ID: c.ID, Action: store.ActionRevert})
			res.Reverted = append(res.Reverted, t.Path)
		case existed:
			saves = append(saves, store.DeckCard{ID: c.ID, Path: t.Path, Markdown: string(src)})
			res.Updated = append(res.Updated, t.Path)
		default:
			saves = append(saves, store.DeckCard{ID: c.ID, Path: t.Path, Markdown: string(src)})
			res.Created = append(res.Created, t.Path)
		}
		changes[t.Path] = src
	}
	for _, id := range deletes {
		c, ok := d.Card(id)
		if !ok || !l.Stored[c.File] {
			problems = append(problems, deck.Error{File: "delete", Msg: fmt.Sprintf("card %q has no text stored in the app to remove", id)})
			continue
		}
		_, bundled := Text(l, c.File)
		changes[c.File] = bundled
		if bundled != nil {
			removals = append(removals, store.Removal{ID: id, Action: store.ActionRevert})
			res.Reverted = append(res.Reverted, c.File)
		} else {
			removals = append(removals, store.Removal{ID: id, Action: store.ActionDelete})
			res.Deleted = append(res.Deleted, c.File)
		}
	}
	if len(problems) == 0 && len(changes) > 0 {
		problems = CheckDeckWith(l, changes)
	}
	if len(problems) > 0 {
		problems.Sort()
		return BatchResult{}, problems, nil
	}
	if len(saves)+len(removals) == 0 {
		return res, nil, nil
	}
	if err := w.d.Store.ApplyDeckChanges(ctx, saves, removals, store.ActionSave, userID, w.d.Now()); err != nil {
		return res, nil, err
	}
	return res, nil, w.d.Reload()
}
