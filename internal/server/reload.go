package server

import (
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
)

// Reloader is a DeckSource that can re-read its content. The admin page and SIGHUP use it.
type Reloader interface {
	DeckSource
	// Reload loads the content again and swaps it in only if it is valid; on error the
	// running deck stays and the error (a deck.ErrorList for bad cards) is returned.
	Reload() error
	// ReloadStatus describes the deck source and the outcome of the last reload.
	ReloadStatus() ReloadStatus
}

// ErrEmbedded is returned by Reload for the deck compiled into the binary.
var ErrEmbedded = errors.New("the deck is embedded in the binary; start with --content DIR to reload it from disk")

// ReloadStatus is what the admin page shows about the deck.
type ReloadStatus struct {
	Source     string // content directory, or "embedded"
	Embedded   bool
	LoadedAt   time.Time      // when the running deck was loaded
	FailedAt   time.Time      // last failed reload; zero when the last attempt succeeded
	Errors     deck.ErrorList // every problem of the last failed reload
	OtherError string         // a failure that is not about a card (unreadable directory)
}

// DeckHolder is a reloadable DeckSource: readers get the current deck with one atomic load,
// and a reload swaps the pointer only after the new deck validated.
type DeckHolder struct {
	cur  atomic.Pointer[deck.Deck]
	load func() (*deck.Deck, error) // nil for an embedded deck
	now  func() time.Time

	mu     sync.Mutex // serialises reloads and guards status
	status ReloadStatus

	reloadsOK, reloadsFailed atomic.Int64 // for the metrics
}

// NewDeckHolder holds d, loaded from source; load re-reads the source (nil: not reloadable).
func NewDeckHolder(d *deck.Deck, source string, load func() (*deck.Deck, error)) *DeckHolder {
	h := &DeckHolder{load: load, now: time.Now}
	h.cur.Store(d)
	h.status = ReloadStatus{Source: source, Embedded: load == nil, LoadedAt: h.now()}
	return h
}

// ReloadCounts reports how many reloads succeeded and failed since start (for the metrics).
func (h *DeckHolder) ReloadCounts() (ok, failed int64) {
	return h.reloadsOK.Load(), h.reloadsFailed.Load()
}

// Deck returns the current deck.
func (h *DeckHolder) Deck() *deck.Deck { return h.cur.Load() }

// Reload re-reads the content; see Reloader.
func (h *DeckHolder) Reload() error {
	if h.load == nil {
		return ErrEmbedded
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	d, err := h.load()
	if err == nil && d == nil {
		err = errors.New("the loader returned no deck")
	}
	if err != nil {
		h.reloadsFailed.Add(1)
		h.status.FailedAt, h.status.Errors, h.status.OtherError = h.now(), nil, ""
		var list deck.ErrorList
		if errors.As(err, &list) {
			h.status.Errors = append(deck.ErrorList(nil), list...)
		} else {
			h.status.OtherError = err.Error()
		}
		return err
	}
	h.cur.Store(d)
	h.reloadsOK.Add(1)
	h.status.LoadedAt, h.status.FailedAt, h.status.Errors, h.status.OtherError = h.now(), time.Time{}, nil, ""
	return nil
}

// ReloadStatus reports the source and the last reload's outcome.
func (h *DeckHolder) ReloadStatus() ReloadStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.status
	st.Errors = append(deck.ErrorList(nil), st.Errors...)
	return st
}

// reloadDeck is POST /admin/reload: the outcome shows on the admin page.
func (s *Server) reloadDeck(w http.ResponseWriter, r *http.Request) {
	rl, ok := s.decks.(Reloader)
	if !ok {
		http.Redirect(w, r, "/admin?reload=static#deck", http.StatusSeeOther)
		return
	}
	err := rl.Reload()
	switch {
	case err == nil:
		s.log.InfoContext(r.Context(), "deck reloaded", "cards", s.deck().Len(), "by", userFrom(r.Context()).Username)
		http.Redirect(w, r, "/admin?reload=ok#deck", http.StatusSeeOther)
	case errors.Is(err, ErrEmbedded):
		http.Redirect(w, r, "/admin?reload=embedded#deck", http.StatusSeeOther)
	default:
		s.log.WarnContext(r.Context(), "deck reload failed; the running deck stays", "err", err)
		http.Redirect(w, r, "/admin?reload=failed#deck", http.StatusSeeOther)
	}
}

// readyz answers 200 when the database answers and a deck is loaded, else 503, so a load
// balancer or orchestrator only sends traffic to an instance that can serve it.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.db.Ping(r.Context()); err != nil {
		s.log.WarnContext(r.Context(), "not ready: database", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("database unavailable\n"))
		return
	}
	if d := s.deck(); d == nil || d.Len() == 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("no deck loaded\n"))
		return
	}
	w.Write([]byte("ready\n"))
}
