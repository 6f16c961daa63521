package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/a-h/templ"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/views"
)

// figureCacheBytes bounds the rendered HTML kept: figures (10-25 KB) and anonymous card pages
// (about 30 KB).
const figureCacheBytes = 8 << 20

// figureCache keeps HTML that depends only on a card: its simulation figure (deterministic, run
// under fixed limits; laying out and rendering the timelines was most of a card page's cost)
// and its anonymous page. Keys are the card id for figures and "page:ID:DEPTH" for pages.
// Entries belong to one deck: a reload starts a fresh cache, so an edited card is never stale.
type figureCache struct {
	mu    sync.Mutex
	deck  *deck.Deck
	html  map[string][]byte // card id → rendered figure
	bytes int
}

func (f *figureCache) get(d *deck.Deck, id string) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deck != d {
		return nil, false
	}
	b, ok := f.html[id]
	return b, ok
}

func (f *figureCache) put(d *deck.Deck, id string, b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deck != d || f.bytes+len(b) > figureCacheBytes {
		f.deck, f.html, f.bytes = d, map[string][]byte{}, 0
	}
	f.html[id] = b
	f.bytes += len(b)
}

// cachedCardSimulation is cardSimulation with its output rendered once per card and deck.
func (s *Server) cachedCardSimulation(r *http.Request, d *deck.Deck, c *deck.Card) (views.Slot, error) {
	if c.Sim == nil {
		return nil, nil
	}
	if b, ok := s.figures.get(d, c.ID); ok {
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
	s.figures.put(d, c.ID, buf.Bytes())
	return rawHTML(buf.Bytes()), nil
}

// rawHTML writes already rendered, already escaped markup.
func rawHTML(b []byte) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// cachePage keeps a rendered page and its gzip form, compressed once rather than per request:
// per-request gzip of a 30 KB page costed more than rendering it and a compression window per
// concurrent response.
func (s *Server) cachePage(d *deck.Deck, key string, page []byte) {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(page)
	zw.Close()
	s.figures.put(d, key, page)
	s.figures.put(d, key+":gz", gz.Bytes())
}

// writeCachedPage serves a page kept by cachePage, compressed when the client accepts gzip
// (the compression middleware passes a response that already has a Content-Encoding through).
func (s *Server) writeCachedPage(w http.ResponseWriter, r *http.Request, d *deck.Deck, key string) bool {
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		if gz, ok := s.figures.get(d, key+":gz"); ok {
			h := w.Header()
			h.Set("Content-Encoding", "gzip")
			h.Add("Vary", "Accept-Encoding")
			writeHTML(w, http.StatusOK, gz)
			return true
		}
	}
	if b, ok := s.figures.get(d, key); ok {
		writeHTML(w, http.StatusOK, b)
		return true
	}
	return false
}
