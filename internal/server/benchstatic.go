package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/go-chi/chi/v5"
)

// BenchStaticPath serves, in bench mode only, a card page rendered once at startup.
const BenchStaticPath = "/bench/static"

// WithBenchStatic returns the app with GET /bench/static added: the anonymous page of cardID,
// rendered once and then served as a fixed byte slice behind the same middleware as every
// page (recovery, logging, metrics, security headers, compression, session lookup). It is the
// ceiling the card page is measured against: same bytes, same stack, no per-request work.
// Only `rehearse serve` with REHEARSE_BENCH_STATIC set calls it.
func (s *Server) WithBenchStatic(app http.Handler, cardID string) (http.Handler, error) {
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/cards/"+cardID, nil))
	if rec.Code != http.StatusOK {
		return nil, fmt.Errorf("bench static: /cards/%s answered %d", cardID, rec.Code)
	}
	page := rec.Body.Bytes()

	r := chi.NewRouter()
	r.Use(s.router().Middlewares()...) // the real stack, not a copy of its list
	r.With(s.loadSession, s.privateGate).Get(BenchStaticPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux := http.NewServeMux()
	mux.Handle("/", app)
	mux.Handle("GET "+BenchStaticPath, http.NewCrossOriginProtection().Handler(r))
	return mux, nil
}
