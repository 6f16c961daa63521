package server

import (
	"net/http"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/views"
)

// The hooks below are where features plug into shared pages. Each returns nil until its feature
// fills it in (study progress, simulations).

// dueByTopic counts the signed-in user's due cards per topic slug (empty when signed out).
func (s *Server) dueByTopic(r *http.Request) (map[string]int, error) { return nil, nil }

// cardProgress renders the user's spaced-repetition state for a card on its page.
func (s *Server) cardProgress(r *http.Request, c *deck.Card) (views.Slot, error) { return nil, nil }

// cardSimulation renders the simulation that illustrates a card.
func (s *Server) cardSimulation(r *http.Request, c *deck.Card) (views.Slot, error) { return nil, nil }

// cardScripts lists extra scripts the card page needs.
func (s *Server) cardScripts() []string { return nil }
