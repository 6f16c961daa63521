package server

import "github.com/go-chi/chi/v5"

// featureRoutes registers the routes of study, mock, simulator and team features.
func (s *Server) featureRoutes(r chi.Router) {}
