package server

import (
	"context"
	"errors"
	"io/fs"
	"path"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/store"
)

// errNotEditable: the running deck was not loaded with its files (a test deck in memory).
var errNotEditable = errors.New("this deck was not loaded from files, so its cards cannot be edited here")

// loaded returns the running deck with its files, or nil when the deck source has none.
func (s *Server) loaded() *deckload.Loaded {
	if h, ok := s.decks.(interface{ Loaded() *deckload.Loaded }); ok {
		if l := h.Loaded(); l != nil && l.Files != nil {
			return l
		}
	}
	return nil
}

// canEdit reports whether u may write cards: admins, and members when an admin allows it.
func (s *Server) canEdit(ctx context.Context, u *store.User) (bool, error) {
	if u == nil {
		return false, nil
	}
	if u.IsAdmin() {
		return true, nil
	}
	v, err := s.db.Setting(ctx, store.SettingMembersEdit)
	return v == "1", err
}

// cardText is a card's markdown as the running deck has it, and as its card file has it
// (nil when the card exists only in the app).
func cardText(l *deckload.Loaded, file string) (current, bundled []byte) {
	current, _ = fs.ReadFile(l.Files, file)
	if l.Base != nil {
		bundled, _ = fs.ReadFile(l.Base, file)
	}
	return current, bundled
}

// checkSim is the deck's simulation check for one card being edited.
func (s *Server) checkSim(ctx context.Context) func(*deck.Simulation) error {
	return deckload.CheckSim(func(sc rebalance.Scenario, lim rebalance.Limits) error {
		_, err := s.runSim(ctx, sc, lim)
		return err
	})
}

// checkCard checks src as the card at t: the card alone (editor.Check), then the whole deck
// with it in place, which catches what one card cannot show (a link to a card the deck lacks).
func (s *Server) checkCard(ctx context.Context, l *deckload.Loaded, t editor.Target, src []byte) (*deck.Card, deck.ErrorList) {
	c, errs := editor.Check(l.Deck, t, src, s.checkSim(ctx))
	if len(errs) > 0 {
		return nil, errs
	}
	if _, failed := s.cardExpectations(ctx, c.Sim); len(failed) > 0 {
		for i := range failed {
			failed[i].File = t.Path
		}
		return nil, failed
	}
	return c, s.checkDeckWith(l, map[string][]byte{t.Path: src})
}

// checkDeckWith loads the running deck's files with changes laid over them (nil text: the file
// removed) and returns the problems. Simulations are not run again: each card's was checked
// when it was saved.
func (s *Server) checkDeckWith(l *deckload.Loaded, changes map[string][]byte) deck.ErrorList {
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

// errLinked: removing the card would leave other cards linking to nothing.
var errLinked = errors.New("other cards link to this card")

// saveOutcome is what a save did.
type saveOutcome struct {
	Card      *deck.Card
	Created   bool // the id is new to the deck
	Unchanged bool // the text was already the card's
}

// saveCard checks src as the card at t and stores it, then swaps the new deck in. A card whose
// text equals its card file's drops the stored copy (a revert). errs lists every problem; the
// error is for failures that are not the card's fault.
func (s *Server) saveCard(ctx context.Context, u *store.User, t editor.Target, src []byte, action string) (saveOutcome, deck.ErrorList, error) {
	s.edits.Lock()
	defer s.edits.Unlock()
	l := s.loaded()
	if l == nil {
		return saveOutcome{}, nil, errNotEditable
	}
	c, errs := s.checkCard(ctx, l, t, src)
	if len(errs) > 0 {
		return saveOutcome{}, errs, nil
	}
	_, existed := l.Deck.Card(c.ID)
	current, bundled := cardText(l, t.Path)
	out := saveOutcome{Card: c, Created: !existed}
	var userID int64
	if u != nil {
		userID = u.ID
	}
	switch {
	case existed && string(current) == string(src):
		out.Unchanged = true
		return out, nil, nil
	case bundled != nil && string(bundled) == string(src):
		if err := s.db.RemoveDeckCard(ctx, c.ID, store.ActionRevert, userID, s.now()); err != nil {
			return out, nil, err
		}
	default:
		if _, err := s.db.SaveDeckCard(ctx, store.DeckCard{ID: c.ID, Path: t.Path, Markdown: string(src)}, action, userID, s.now()); err != nil {
			return out, nil, err
		}
	}
	if err := s.reloadDecks(); err != nil {
		return out, nil, err
	}
	if nl := s.loaded(); nl != nil {
		for _, e := range nl.Skipped {
			if e.File == t.Path { // stored, but it clashes with the deck after all
				return out, deck.ErrorList{e}, nil
			}
		}
		out.Card, _ = nl.Deck.Card(c.ID)
	}
	return out, nil, nil
}

// removeCard drops a card's stored text: a bundled card goes back to its file's text, a card
// written in the app is deleted. It reports which, store.ErrNotFound when nothing is stored, and
// errLinked (with the problems) when the deck would no longer load without it.
func (s *Server) removeCard(ctx context.Context, u *store.User, id string) (reverted bool, problems deck.ErrorList, err error) {
	s.edits.Lock()
	defer s.edits.Unlock()
	l := s.loaded()
	if l == nil {
		return false, nil, errNotEditable
	}
	c, ok := l.Deck.Card(id)
	if !ok || !l.Stored[c.File] {
		return false, nil, store.ErrNotFound
	}
	_, bundled := cardText(l, c.File)
	action := store.ActionDelete
	if bundled != nil {
		action = store.ActionRevert
	}
	if list := s.checkDeckWith(l, map[string][]byte{c.File: bundled}); len(list) > 0 {
		return false, list, errLinked
	}
	var userID int64
	if u != nil {
		userID = u.ID
	}
	if err := s.db.RemoveDeckCard(ctx, id, action, userID, s.now()); err != nil {
		return false, nil, err
	}
	return bundled != nil, nil, s.reloadDecks()
}

// targetFor says where card id is saved: its current file, or for a new card the given path,
// else the folder of its topic.
func targetFor(d *deck.Deck, id, wantPath, topic string) editor.Target {
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
