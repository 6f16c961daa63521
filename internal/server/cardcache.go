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
	templruntime "github.com/a-h/templ/runtime"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/gzpage"
	"github.com/rehearse/rehearse/internal/views"
)

// figureCacheBytes bounds what the cache keeps: figures (10-25 KB, plus 3-5 KB compressed),
// anonymous card pages (about 85 KB with their gzip form) and compressed card bodies (5-10 KB).
const figureCacheBytes = 8 << 20

// figureCache keeps what depends only on a card: its simulation figure (deterministic, run
// under fixed limits; laying out and rendering the timelines was most of a card page's cost),
// its anonymous page, and the compressed parts that signed-in pages splice in (gzpage). Entries
// belong to one deck: a reload starts a fresh cache, so an edited card is never stale. When
// full, entries picked at random make room: no bookkeeping per hit, and a hot entry evicted by
// chance costs one render.
type figureCache struct {
	mu    sync.Mutex
	deck  *deck.Deck
	m     map[string]cacheEntry
	bytes int
	max   int // 0: figureCacheBytes
}

// userPageCacheBytes bounds the cache of signed-in pages (userpage.go), apart from the figures'
// so that many users' pages never push out a figure, which costs a simulation to make again.
const userPageCacheBytes = 4 << 20

func (f *figureCache) limit() int {
	if f.max > 0 {
		return f.max
	}
	return figureCacheBytes
}

// cacheEntry is rendered markup, with its gzip form (anonymous pages) or as a compressed part.
type cacheEntry struct {
	html []byte
	gz   []byte
	part *gzpage.Part
	tmpl *gzpage.Template // a page with holes (userpage.go)
	hole []byte           // what the template's holes held
}

func (e cacheEntry) size() int {
	n := len(e.html) + len(e.gz) + len(e.hole)
	if e.part != nil {
		n += e.part.Bytes()
	}
	if e.tmpl != nil {
		n += e.tmpl.Bytes()
	}
	return n
}

func (f *figureCache) entry(d *deck.Deck, key string) (cacheEntry, bool) { return lookup(f, d, key) }

// entryBytes is entry for a key built in a buffer (userpage.go).
func (f *figureCache) entryBytes(d *deck.Deck, key []byte) (cacheEntry, bool) {
	return lookup(f, d, key)
}

// lookup is the one look-up behind both: for a []byte key the map index converts it without
// a copy (TestEntryBytesAllocatesNothing).
func lookup[K string | []byte](f *figureCache, d *deck.Deck, key K) (cacheEntry, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deck != d {
		return cacheEntry{}, false
	}
	e, ok := f.m[string(key)]
	return e, ok
}

func (f *figureCache) store(d *deck.Deck, key string, e cacheEntry) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.deck != d || f.m == nil {
		f.deck, f.m, f.bytes = d, map[string]cacheEntry{}, 0
	}
	if old, ok := f.m[key]; ok {
		delete(f.m, key)
		f.bytes -= len(key) + old.size()
	}
	n := len(key) + e.size() // a signed-in page's key spells out its inputs: often 1-2 KB
	if n > f.limit() {
		return
	}
	for k, old := range f.m { // map order is unspecified: a cheap random eviction
		if f.bytes+n <= f.limit() {
			break
		}
		delete(f.m, k)
		f.bytes -= len(k) + old.size()
	}
	f.m[key] = e
	f.bytes += n
}

// cachedCardSimulation is cardSimulation with its output rendered once per card and deck. The
// figure is kept compressed too, for pages assembled by renderSpliced.
func (s *Server) cachedCardSimulation(r *http.Request, d *deck.Deck, c *deck.Card) (views.Slot, error) {
	if c.Sim == nil {
		return nil, nil
	}
	if e, ok := s.figures.entry(d, "figure:"+c.ID); ok {
		return splicedPart(e.part, rawHTML(e.html)), nil
	}
	slot, err := s.cardSimulation(r, c)
	if err != nil || slot == nil {
		return slot, err
	}
	var buf bytes.Buffer
	if err := slot.Render(r.Context(), &buf); err != nil {
		return nil, err
	}
	e := cacheEntry{html: buf.Bytes(), part: gzpage.NewPart(buf.Bytes())}
	s.figures.store(d, "figure:"+c.ID, e)
	return splicedPart(e.part, rawHTML(e.html)), nil
}

// cardBody is a card's answer sections for a page, spliced in compressed when the page is
// assembled by renderSpliced (the part is compressed once per card, depth and page kind), and
// rendered as usual otherwise.
func (s *Server) cardBody(r *http.Request, d *deck.Deck, c *deck.Card, depth string, anchors bool) views.Slot {
	body := views.CardBody(c, depth, anchors, "")
	if !acceptsGzip(r) {
		return body
	}
	if !fromDeck(d, c) { // c is from a deck reloaded since: do not keep it
		return body
	}
	key := "body:" + c.ID + ":" + depth
	if anchors {
		key += ":anchors"
	}
	if e, ok := s.figures.entry(d, key); ok {
		return splicedPart(e.part, body)
	}
	var buf bytes.Buffer
	if err := body.Render(r.Context(), &buf); err != nil {
		return body // the page's own render reports it
	}
	p := gzpage.NewPart(buf.Bytes())
	s.figures.store(d, key, cacheEntry{part: p})
	return splicedPart(p, body)
}

// fromDeck reports whether c is d's own card, not one of a deck reloaded since.
func fromDeck(d *deck.Deck, c *deck.Card) bool {
	dc, ok := d.Card(c.ID)
	return ok && dc == c
}

// rawHTML writes already rendered, already escaped markup.
func rawHTML(b []byte) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

type spliceKey struct{}

// splicedPart splices p into the gzip stream of a page that renderSpliced assembles, and
// renders fallback (the same markup) anywhere else.
func splicedPart(p *gzpage.Part, fallback templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if gw, ok := ctx.Value(spliceKey{}).(*gzpage.Writer); ok && p != nil {
			// templ buffers its output: what it holds must reach the stream before the part.
			if b, ok := w.(*templruntime.Buffer); ok && b.Underlying == gw {
				if err := b.Flush(); err != nil {
					return err
				}
				return gw.Splice(p)
			}
		}
		return fallback.Render(ctx, w)
	})
}

// segmentMemo keeps the compressed form of the markup between parts, by its bytes (a user's
// page header, a card page's progress section): seen again, it is not compressed again.
var segmentMemo = gzpage.NewMemo(segmentMemoBytes)

// segmentMemoBytes bounds it: a signed-in page has 3-4 segments of 1-4 KB, each kept with its
// compressed form.
const segmentMemoBytes = 2 << 20

// renderSpliced is render for pages with parts kept compressed: for a client that accepts
// gzip, the page's own markup is compressed at the fastest level (or taken from segmentMemo)
// and the parts are spliced in, rather than the whole page compressed per request. It returns
// what keep asks for of the gzipped page it sent: nothing, a copy, or its template (gzpage).
func (s *Server) renderSpliced(w http.ResponseWriter, r *http.Request, status int, c templ.Component, keep keepMode) ([]byte, *gzpage.Template) {
	if !acceptsGzip(r) {
		s.render(w, r, status, c)
		return nil, nil
	}
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	gw := gzpage.NewWriter(buf, segmentMemo)
	if keep == keepTemplate {
		gw.Record()
	}
	err := c.Render(context.WithValue(r.Context(), spliceKey{}, gw), gw)
	if cerr := gw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.fail(w, r, err)
		return nil, nil
	}
	writeGzipHTML(w, r, status, buf.Bytes())
	switch keep {
	case keepBytes:
		return bytes.Clone(buf.Bytes()), nil
	case keepTemplate:
		return nil, gw.Recorded()
	}
	return nil, nil
}

type keepMode int

const (
	keepNothing keepMode = iota
	keepBytes
	keepTemplate
)

// writeGzipHTML writes a page that is already gzipped; the compression middleware passes a
// response with its own Content-Encoding through.
func writeGzipHTML(w http.ResponseWriter, r *http.Request, status int, gz []byte) {
	h := w.Header()
	h["Content-Encoding"] = gzipValue // shared, as in frame
	h.Add("Vary", "Accept-Encoding")
	sendPage(w, r, status, gz) // coalesce.go: in one write
}

func acceptsGzip(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept-Encoding"), "gzip")
}

// cachePage keeps a rendered page and its gzip form, compressed once rather than per request:
// per-request gzip of a 30 KB page costed more than rendering it and a compression window per
// concurrent response.
func (s *Server) cachePage(d *deck.Deck, key string, page []byte) {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(page)
	zw.Close()
	s.figures.store(d, key, cacheEntry{html: page, gz: gz.Bytes()})
}

// writeCachedPage serves a page kept by cachePage, compressed when the client accepts gzip
// (the compression middleware passes a response that already has a Content-Encoding through).
func (s *Server) writeCachedPage(w http.ResponseWriter, r *http.Request, d *deck.Deck, key string) bool {
	e, ok := s.figures.entry(d, key)
	switch {
	case !ok || e.html == nil:
		return false
	case acceptsGzip(r) && e.gz != nil:
		writeGzipHTML(w, r, http.StatusOK, e.gz)
	default:
		writeHTML(w, http.StatusOK, e.html)
	}
	return true
}
