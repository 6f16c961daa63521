package server

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// httpError is an error with a status and a message safe to show the user.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func errStatus(status int, msg string) error { return &httpError{status, msg} }

// fail is the one place that maps errors to responses. Only unexpected errors are logged, and
// their text never reaches the user.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, msg := http.StatusInternalServerError, "Something went wrong on our side. Please try again."
	var he *httpError
	switch {
	case errors.As(err, &he):
		status, msg = he.status, he.msg
	case errors.Is(err, store.ErrNotFound):
		status, msg = http.StatusNotFound, "There is nothing here."
	case errors.Is(err, auth.ErrBusy):
		w.Header().Set("Retry-After", "2")
		status, msg = http.StatusServiceUnavailable, "The server is busy checking passwords. Try again in a few seconds."
	case errors.Is(err, context.Canceled):
		return // the client went away; nobody to answer
	default:
		s.log.ErrorContext(r.Context(), "request failed", methodAttr(r.Method), "path", cut(r.URL.Path, maxLoggedPath), "err", err)
	}
	s.errorPage(w, r, status, msg)
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if wantsJSON(r) {
		writeJSON(w, status, map[string]string{"error": msg})
		return
	}
	p := s.page(r, http.StatusText(status))
	var buf bytes.Buffer
	if err := views.ErrorPage(p, status, msg).Render(r.Context(), &buf); err != nil {
		http.Error(w, msg, status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	s.errorPage(w, r, http.StatusNotFound, "There is nothing here.")
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	s.errorPage(w, r, http.StatusMethodNotAllowed, "That action is not allowed here.")
}
