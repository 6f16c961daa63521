package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// maxBody caps every request body; forms and the simulator API are far smaller than this.
const maxBody = 1 << 20

type ctxKey int

const userKey ctxKey = 1

func userFrom(ctx context.Context) *store.User {
	u, _ := ctx.Value(userKey).(*store.User)
	return u
}

// frame is the outer layer of every request, in one wrapper rather than four: the security
// headers go on first, a panic becomes a plain 500 page (no stack trace reaches the user), and
// once the handler is done one slog line and the request metrics record it. The log line names
// the route pattern and a path with any one-time token redacted (invite.go), never the query
// string or headers (cookies).
func (s *Server) frame(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h := w.Header()
		// The value slices are shared by every response, rather than allocated per request:
		// Set and Add replace or grow a header's slice, they never write into it.
		h["Content-Security-Policy"] = cspValue
		h["X-Content-Type-Options"] = nosniffValue
		h["Referrer-Policy"] = sameOriginValue
		h["X-Frame-Options"] = denyValue
		rw := &statusWriter{ResponseWriter: w}
		s.serveRecovering(rw, r, next)
		took, route := time.Since(start), routeLabel(r)
		s.logRequest(r, rw, route, took)
		s.metrics.ObserveRequest(route, methodLabel(r.Method), rw.code(), took)
	})
}

// logRequest writes the request's line.
func (s *Server) logRequest(r *http.Request, rw *statusWriter, route string, took time.Duration) {
	s.log.LogAttrs(r.Context(), levelFor(rw.code()), "request", methodAttr(r.Method), slog.String("route", route),
		slog.String("path", cut(redactedPath(r), maxLoggedPath)), slog.Int("status", rw.code()),
		slog.Int("bytes", rw.bytes), slog.Duration("took", took))
}

// serveRecovering runs next, turning a panic into a 500 page and a log line.
func (s *Server) serveRecovering(w *statusWriter, r *http.Request, next http.Handler) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.fail(w, r, fmt.Errorf("panic: %v", v))
		}
	}()
	next.ServeHTTP(w, r)
}

// statusWriter records the status and body bytes of a response for the log and the metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 { // informational headers (1xx) are not the response's status
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += n
	return n, err
}

// code is the status sent, 200 for a handler that wrote nothing.
func (w *statusWriter) code() int { return cmp.Or(w.status, http.StatusOK) }

// Unwrap lets http.ResponseController reach the connection's writer (Flush, deadlines).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

var (
	cspValue        = []string{"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"}
	nosniffValue    = []string{"nosniff"}
	sameOriginValue = []string{"same-origin"}
	denyValue       = []string{"DENY"}
	htmlTypeValue   = []string{"text/html; charset=utf-8"}
)

// limitBody caps request bodies so a huge upload cannot exhaust memory. A form is parsed here,
// so one sent without a length (chunked) that runs over the cap is a 413 too, and a malformed
// one a 400, rather than a form whose fields silently went missing.
func limitBody(n int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ownBodyLimit[r.URL.Path] { // a route that caps its body itself and words its limit
				next.ServeHTTP(w, r)
				return
			}
			if r.ContentLength > n {
				http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
				return
			}
			if r.Body == nil || r.Body == http.NoBody { // nothing to cap: most GETs
				next.ServeHTTP(w, r)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, n)
			if r.Method == http.MethodPost && strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
				if err := r.ParseForm(); err != nil {
					if _, tooBig := errors.AsType[*http.MaxBytesError](err); tooBig {
						http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
					} else {
						http.Error(w, "The form could not be read: it is not valid form encoding.", http.StatusBadRequest)
					}
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

const sessionCookie = "rehearse_session"

// loadSession puts the signed-in user, if any, into the request context.
func (s *Server) loadSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(sessionCookie)
		if err == nil && c.Value != "" && len(c.Value) < 100 {
			u, err := s.db.SessionUser(r.Context(), auth.Digest(c.Value), s.now())
			switch {
			case err == nil:
				r = r.WithContext(context.WithValue(r.Context(), userKey, u))
				// A signed-in page is the user's own: no shared or disk cache keeps it (a
				// handler may loosen this for its own bytes, as recordings do).
				w.Header().Set("Cache-Control", "private, no-store")
			case errors.Is(err, store.ErrNotFound):
				s.clearSessionCookie(w, r)
			default:
				s.fail(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// requireUser sends anonymous visitors to the login page (or a 401 for API calls).
func (s *Server) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if userFrom(r.Context()) == nil {
			if wantsJSON(r) {
				writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "log in first"})
				return
			}
			if r.Method == http.MethodGet {
				http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			s.errorPage(w, r, http.StatusUnauthorized, "Log in first.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// requireAdmin refuses members with a 403.
func (s *Server) requireAdmin(next http.Handler) http.Handler {
	return s.requireUser(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !userFrom(r.Context()).IsAdmin() {
			s.errorPage(w, r, http.StatusForbidden, "Only administrators can open this page.")
			return
		}
		next.ServeHTTP(w, r)
	}))
}

// privateGate, in private mode, lets anonymous visitors reach only login, setup, health and assets.
func (s *Server) privateGate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.Private && userFrom(r.Context()) == nil && !publicInPrivateMode(r.URL.Path) {
			s.requireUser(next).ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
