package deckload

import (
	"errors"
	"io/fs"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
)

// ErrNotReloadable is returned by Reload for a holder built without a loader.
var ErrNotReloadable = errors.New("this deck was loaded once and cannot be reloaded")

// Status is what the admin page shows about the deck.
type Status struct {
	Source     string         // content directory, or "embedded"
	Embedded   bool           // the card files are compiled into the binary (edits in the app still apply)
	LoadedAt   time.Time      // when the running deck was loaded
	FailedAt   time.Time      // last failed reload; zero when the last attempt succeeded
	Errors     deck.ErrorList // every problem of the last failed reload
	OtherError string         // a failure that is not about a card (unreadable directory)
}

// Holder hands out the current deck with one atomic load; a reload swaps the pointer only
// after the new deck validated, so readers never see a broken deck.
type Holder struct {
	cur  atomic.Pointer[Loaded]
	load func() (*Loaded, error) // nil: not reloadable
	now  func() time.Time

	mu     sync.Mutex // serialises reloads and guards status
	status Status

	reloadsOK, reloadsFailed atomic.Int64 // for the metrics
}

// Loaded is one load: the deck and the files it was parsed from.
type Loaded struct {
	Deck *deck.Deck
	// Files are the deck's files as loaded (card files with stored cards laid over them), Base
	// the card files alone, and Stored the paths whose text came from the store. Base and
	// Files are nil for a deck built in memory.
	Files, Base fs.FS
	Stored      map[string]bool
	// Skipped lists stored cards left out because they no longer load with the card files
	// (say an update added a card with the same id); they stay in the store, and serve logs
	// each with its reason at start.
	Skipped deck.ErrorList
}

// NewHolder holds l, loaded from source ("embedded" or a directory); load reads it again
// (nil: never reloaded).
func NewHolder(l *Loaded, source string, load func() (*Loaded, error)) *Holder {
	h := &Holder{load: load, now: time.Now}
	h.cur.Store(l)
	h.status = Status{Source: source, Embedded: source == "embedded", LoadedAt: h.now()}
	return h
}

// Deck returns the current deck.
func (h *Holder) Deck() *deck.Deck { return h.cur.Load().Deck }

// Loaded returns the current load, files included.
func (h *Holder) Loaded() *Loaded { return h.cur.Load() }

// ReloadCounts reports how many reloads succeeded and failed since start (for the metrics).
func (h *Holder) ReloadCounts() (ok, failed int64) {
	return h.reloadsOK.Load(), h.reloadsFailed.Load()
}

// Reload loads the content again and swaps it in only if it is valid; on error the running
// deck stays and the error (a deck.ErrorList for bad cards) is returned.
func (h *Holder) Reload() error {
	if h.load == nil {
		return ErrNotReloadable
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	d, err := h.load()
	if err == nil && (d == nil || d.Deck == nil) {
		err = errors.New("the loader returned no deck")
	}
	if err != nil {
		h.status.FailedAt, h.status.Errors, h.status.OtherError = h.now(), nil, ""
		var list deck.ErrorList
		if errors.As(err, &list) {
			h.status.Errors = append(deck.ErrorList(nil), list...)
		} else {
			h.status.OtherError = err.Error()
		}
		h.reloadsFailed.Add(1)
		return err
	}
	h.cur.Store(d)
	h.status.LoadedAt, h.status.FailedAt, h.status.Errors, h.status.OtherError = h.now(), time.Time{}, nil, ""
	h.reloadsOK.Add(1)
	return nil
}

// Status reports the source and the last reload's outcome.
func (h *Holder) Status() Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.status
	st.Errors = append(deck.ErrorList(nil), st.Errors...)
	return st
}
