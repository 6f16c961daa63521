package server

import (
	"net/http"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/simform"
	"github.com/rehearse/rehearse/internal/views"
)

// cachedCardSimulation is cardSimulation rendered once per card and deck (simform.FigureCache).
func (s *Server) cachedCardSimulation(r *http.Request, d *deck.Deck, c *deck.Card) (views.Slot, error) {
	if c.Sim == nil {
		return nil, nil
	}
	if simform.WhatIfAsked(queryValues(r).Get) { // the learner's numbers, not the card's figure
		return s.cardSimulation(r, c)
	}
	return s.figures.Figure(r.Context(), d, c, func() (views.Slot, error) { return s.cardSimulation(r, c) })
}
