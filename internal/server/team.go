package server

import "github.com/go-chi/chi/v5"

// Team and administration feature (placeholder until it lands).

type teamState struct{}

func (s *Server) initTeam() {}

func (s *Server) teamRoutes(r chi.Router) {}
