package server

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// Handler returns the whole application: every route, behind the shared middleware.
func (s *Server) Handler() http.Handler {
	r := s.router()

	// CrossOriginProtection rejects state-changing requests that a browser marks as cross-site
	// (Sec-Fetch-Site, or an Origin that is not ours): CSRF protection without tokens in forms.
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.errorPage(w, r, http.StatusForbidden, "This request came from another site and was refused.")
	}))
	protected := cop.Handler(r)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if isBearerAPI(req) { // cards_api.go: a token, not a cookie, authenticates these
			r.ServeHTTP(w, req)
			return
		}
		protected.ServeHTTP(w, req)
	})
}

// router builds the chi router itself (the authorization matrix test walks its routes).
func (s *Server) router() chi.Router {
	r := chi.NewRouter()
	r.Use(s.frame, limitBody(maxBody)) // middleware.go
	r.Use(middleware.GetHead)          // HEAD answers as GET without the body (monitors, curl -I)
	// compress.go
	r.Use(compressed())
	r.NotFound(s.loadSession(http.HandlerFunc(s.notFound)).ServeHTTP) // signed in: the signed-in header
	r.MethodNotAllowed(s.methodNotAllowed)

	r.Get("/healthz", s.healthz)
	r.Get("/readyz", s.readyz) // reload.go
	r.Handle("/static/*", s.assets)

	r.Group(func(r chi.Router) {
		r.Use(s.loadSession, s.proxySignIn, s.privateGate) // authproxy.go
		r.Get("/", s.home)
		r.Get("/topics/{slug}", s.topic)
		r.Get("/cards/{id}", s.card)
		r.Get("/search", s.search)
		r.Get("/login", s.loginPage)
		r.Post("/login", s.login)
		r.Post("/logout", s.logout)
		r.Get("/setup", s.setupPage)
		r.Post("/setup", s.setup)

		s.featureRoutes(r)
	})
	s.cardsAPIRoutes(r) // cards_api.go: token or session, never the private-mode login redirect
	return r
}

// publicInPrivateMode lists what anonymous visitors may reach in private mode.
func publicInPrivateMode(path string) bool {
	switch path {
	case "/login", "/setup", "/healthz", "/readyz", "/auth/oidc", oidcCallback:
		return true
	}
	return strings.HasPrefix(path, "/static/") || strings.HasPrefix(path, "/invite/") || strings.HasPrefix(path, "/reset/")
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Write([]byte("ok\n"))
}
