package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/views"
)

// Study feature (placeholder until it lands).

func (s *Server) studyRoutes(r chi.Router) {}

// dueByTopic counts the signed-in user's due cards per topic slug (empty when signed out).
func (s *Server) dueByTopic(r *http.Request) (map[string]int, error) { return nil, nil }

// cardProgress renders the user's spaced-repetition state for a card on its page.
func (s *Server) cardProgress(r *http.Request, c *deck.Card) (views.Slot, error) { return nil, nil }
