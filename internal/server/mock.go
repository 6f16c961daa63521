package server

import "github.com/go-chi/chi/v5"

// Mock-interview feature (placeholder until it lands).

func (s *Server) mockRoutes(r chi.Router) {}
