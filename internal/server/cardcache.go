package server

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/a-h/templ"
	"github.com/klauspost/compress/s2"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/simform"
	"github.com/rehearse/rehearse/internal/views"
)

// figureCacheBytes bounds what the figure cache keeps, compressed: a figure is 50-300 KB of
// SVG markup and 8-15 times less compressed, so a 1,000-card deck's figures fit.
const figureCacheBytes = 32 << 20

// figureCache keeps each card's rendered simulation figure: it depends on the card alone and
// costs a simulation run and a layout to make. Figures are kept compressed with S2, which
// decodes far faster than a page is sent. Entries belong to one deck; a deck reload (every card
// edit is one) starts a fresh cache, so an edited card is never shown with an old figure. When
// full, entries picked at random make room.
type figureCache struct {
	mu    sync.Mutex
	deck  *deck.Deck
	m     map[string][]byte
	bytes int
}

func (f *figureCache) get(d *deck.Deck, key string) ([]byte, bool) {
	f.mu.Lock()
	enc, ok := f.m[key]
	ok = ok && f.deck == d
	f.mu.Unlock()
	if !ok {
		return nil, false
	}
	b, err := s2.Decode(nil, enc) // outside the lock: entries are never written once stored
	return b, err == nil
}

func (f *figureCache) put(d *deck.Deck, key string, figure []byte) {
	b := s2.Encode(nil, figure)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deck != d || f.m == nil { // the deck was reloaded: drop the old deck's figures
		f.deck, f.m, f.bytes = d, map[string][]byte{}, 0
	}
	if old, ok := f.m[key]; ok {
		delete(f.m, key)
		f.bytes -= len(key) + len(old)
	}
	n := len(key) + len(b)
	if n > figureCacheBytes {
		return
	}
	for k, old := range f.m { // map order is unspecified: a cheap random eviction
		if f.bytes+n <= figureCacheBytes {
			break
		}
		delete(f.m, k)
		f.bytes -= len(k) + len(old)
	}
	f.m[key] = b
	f.bytes += n
}

// cachedCardSimulation is cardSimulation rendered once per card and deck.
func (s *Server) cachedCardSimulation(r *http.Request, d *deck.Deck, c *deck.Card) (views.Slot, error) {
	if c.Sim == nil {
		return nil, nil
	}
	if simform.WhatIfAsked(queryValues(r).Get) { // simform: the learner's numbers, not the card's figure
		return s.cardSimulation(r, c)
	}
	key := "figure:" + c.ID
	if b, ok := s.figures.get(d, key); ok {
		return rawHTML(b), nil
	}
	slot, err := s.cardSimulation(r, c)
	if err != nil || slot == nil {
		return slot, err
	}
	var buf bytes.Buffer
	if err := slot.Render(r.Context(), &buf); err != nil {
		return nil, err
	}
	if dc, ok := d.Card(c.ID); ok && dc == c { // not a card of a deck reloaded since
		s.figures.put(d, key, buf.Bytes())
	}
	return rawHTML(buf.Bytes()), nil
}

// rawHTML writes already rendered, already escaped markup.
func rawHTML(b []byte) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
