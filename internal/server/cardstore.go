package server

import (
	"context"
	"time"

	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/simform"
	"github.com/rehearse/rehearse/internal/store"
)

// loaded returns the running deck with its files, or nil when the deck source has none.
func (s *Server) loaded() *deckload.Loaded {
	if h, ok := s.decks.(interface{ Loaded() *deckload.Loaded }); ok {
		if l := h.Loaded(); l != nil && l.Files != nil {
			return l
		}
	}
	return nil
}

// canEdit reports whether u may write cards (cardwrite.CanEdit).
func (s *Server) canEdit(ctx context.Context, u *store.User) (bool, error) {
	return cardwrite.CanEdit(ctx, s.db, u)
}

// checkSim is the deck's simulation check for one card being edited.
func (s *Server) checkSim(ctx context.Context) func(*deck.Simulation) error {
	return deckload.CheckSim(func(sc rebalance.Scenario, lim rebalance.Limits) error {
		_, err := s.runSim(ctx, sc, lim)
		return err
	})
}

// idOf is u's id, or 0 for no user (a change from the command line).
func idOf(u *store.User) int64 {
	if u == nil {
		return 0
	}
	return u.ID
}

// newCardWriter wires the card writer (internal/cardwrite) to this server: its store, its
// deck holder, and its simulation runner, which bounds and shares the runs a check makes.
func (s *Server) newCardWriter() *cardwrite.Writer {
	return cardwrite.New(cardwrite.Deps{
		Store:    s.db,
		Loaded:   s.loaded,
		Reload:   s.reloadDecks,
		CheckSim: s.checkSim,
		Expect: func(ctx context.Context, sim *deck.Simulation) deck.ErrorList {
			_, failed := simform.Expectations(ctx, s.sim.Run, sim)
			return failed
		},
		Now: func() time.Time { return s.now() },
	})
}
