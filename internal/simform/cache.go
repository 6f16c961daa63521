package simform

import (
	"bytes"
	"context"
	"io"
	"sync"

	"github.com/a-h/templ"
	"github.com/klauspost/compress/s2"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/views"
)

// FigureCacheBytes bounds what the figure cache keeps, compressed: a figure is 50-300 KB of
// SVG markup and 8-15 times less compressed, so a 1,000-card deck's figures fit.
const FigureCacheBytes = 32 << 20

// FigureCache keeps each card's rendered simulation figure: it depends on the card alone and
// costs a simulation run and a layout to make. Figures are kept compressed with S2, which
// decodes far faster than a page is sent. Entries belong to one deck; a deck reload (every card
// edit is one) starts a fresh cache, so an edited card is never shown with an old figure. When
// full, entries picked at random make room.
type FigureCache struct {
	mu    sync.Mutex
	deck  *deck.Deck
	m     map[string][]byte
	bytes int
}

// Get is the figure kept for key, if it belongs to deck d.
func (f *FigureCache) Get(d *deck.Deck, key string) ([]byte, bool) {
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

// Put keeps a figure of deck d; a figure of another deck first empties the cache.
func (f *FigureCache) Put(d *deck.Deck, key string, figure []byte) {
	b := bytes.Clone(s2.Encode(nil, figure)) // Encode's buffer has room for the uncompressed figure
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
	if n > FigureCacheBytes {
		return
	}
	for k, old := range f.m { // map order is unspecified: a cheap random eviction
		if f.bytes+n <= FigureCacheBytes {
			break
		}
		delete(f.m, k)
		f.bytes -= len(k) + len(old)
	}
	f.m[key] = b
	f.bytes += n
}

// Figure is card c's figure of deck d, made by render once per card and deck; a figure made
// for a card of a deck reloaded since is not kept.
func (f *FigureCache) Figure(ctx context.Context, d *deck.Deck, c *deck.Card, render func() (views.Slot, error)) (views.Slot, error) {
	key := "figure:" + c.ID
	if b, ok := f.Get(d, key); ok {
		return rawHTML(b), nil
	}
	slot, err := render()
	if err != nil || slot == nil {
		return slot, err
	}
	var buf bytes.Buffer
	if err := slot.Render(ctx, &buf); err != nil {
		return nil, err
	}
	if dc, ok := d.Card(c.ID); ok && dc == c {
		f.Put(d, key, buf.Bytes())
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
