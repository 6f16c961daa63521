package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/views"
)

// Simulation feature (placeholder until it lands).

type simState struct{}

func (s *Server) initSim() {}

func (s *Server) simRoutes(r chi.Router) {}

// cardSimulation renders the simulation that illustrates a card.
func (s *Server) cardSimulation(r *http.Request, c *deck.Card) (views.Slot, error) { return nil, nil }

// cardScripts lists extra scripts the card page needs.
func (s *Server) cardScripts() []string { return nil }
