package server

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
)

func TestFigureCacheBelongsToOneDeck(t *testing.T) {
	t.Parallel()
	var f figureCache
	d1, d2 := &deck.Deck{}, &deck.Deck{}
	f.put(d1, "a", []byte("<figure>1</figure>"))
	if b, ok := f.get(d1, "a"); !ok || string(b) != "<figure>1</figure>" {
		t.Fatalf("get after put: %q %v", b, ok)
	}
	if _, ok := f.get(d2, "a"); ok {
		t.Fatal("a reloaded deck was served the old deck's figure")
	}
	f.put(d2, "a", []byte("<figure>2</figure>"))
	if _, ok := f.get(d1, "a"); ok {
		t.Fatal("the old deck's figures survived a reload")
	}
}

func TestFigureCacheStaysWithinBudget(t *testing.T) {
	t.Parallel()
	var f figureCache
	d := &deck.Deck{}
	big := []byte(strings.Repeat("x", figureCacheBytes/3+1))
	for _, id := range []string{"a", "b", "c", "d"} {
		f.put(d, id, big)
		if f.bytes > figureCacheBytes {
			t.Fatalf("after %s the cache holds %d bytes, over %d", id, f.bytes, figureCacheBytes)
		}
	}
	if _, ok := f.get(d, "d"); !ok {
		t.Fatal("the newest figure was dropped")
	}
}

// The card page served from the cache is the one rendered fresh.
func TestCardPageFigureCached(t *testing.T) {
	t.Parallel()
	e := newBenchEnv(t)
	first, second := e.get("/cards/"+benchCard, false), e.get("/cards/"+benchCard, false)
	if !strings.Contains(first.Body.String(), `id="simulation"`) {
		t.Fatal("the card page has no simulation figure")
	}
	if first.Body.String() != second.Body.String() {
		t.Fatal("the cached page differs from the first render")
	}
}

// The anonymous card page is rendered once per card and depth; signed-in users never get it.
func TestAnonymousCardPageCached(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	member := e.signedIn("ada", "member")
	anon := e.client()
	_, first := e.get(anon, "/cards/sample-eager")
	_, again := e.get(anon, "/cards/sample-eager")
	h1, _ := first.Html()
	h2, _ := again.Html()
	if h1 != h2 || first.Find("#login-link").Length() != 1 {
		t.Fatal("anonymous card page differs between two views or shows no login link")
	}
	if _, ok := e.srv.figures.get(e.srv.deck(), "page:sample-eager:basics"); !ok {
		t.Fatal("anonymous page not cached")
	}
	_, deeper := e.get(anon, "/cards/sample-eager?depth=deeper")
	if _, ok := deeper.Find("#tier-deeper").Attr("checked"); !ok {
		t.Fatal("?depth=deeper served the cached basics page")
	}
	_, signed := e.get(member, "/cards/sample-eager")
	if signed.Find("a[href='/account']").Text() != "ada" || signed.Find("#login-link").Length() != 0 {
		t.Fatal("signed-in user got the anonymous page")
	}
}

// A cached page goes out pre-compressed to clients that accept gzip, and plain to the others.
func TestCachedPageGzip(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	e.signedIn("ada", "member") // setup done, so pages are served
	get := func(enc string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", e.ts.URL+"/cards/sample-eager", nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	_, plain := get("") // renders and caches
	resp, gz := get("gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("cached page not gzipped: %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, _ := io.ReadAll(zr)
	if !bytes.Equal(unzipped, plain) {
		t.Fatal("gzip body differs from the plain page")
	}
	if resp, again := get(""); resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(again, plain) {
		t.Fatal("client without gzip got a compressed or different page")
	}
}

// Signed-in card and study pages are assembled from compressed parts for gzip clients: the
// stream must decompress (trailer CRC and length checked) to exactly the page a client without
// gzip gets, on the render that builds the parts and on the ones that reuse them.
func TestSplicedPagesDecompressToThePlainPage(t *testing.T) {
	t.Parallel()
	e := newBenchEnv(t)
	card := "/cards/" + benchCard
	paths := []string{card, card + "?depth=deeper", card + "?depth=solid", "/study",
		"/study?card=" + benchCard + "&reveal=1&shown_at=1793613540000"}
	for _, path := range paths {
		plain := e.get(path, true)
		if plain.Code != http.StatusOK || plain.Header().Get("Content-Encoding") != "" {
			t.Fatalf("%s without gzip: %d %q", path, plain.Code, plain.Header().Get("Content-Encoding"))
		}
		for i := range 2 {
			rec := e.getEncoded(path, true, "gzip, deflate, br")
			if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
				t.Fatalf("%s with gzip: %d %q", path, rec.Code, rec.Header().Get("Content-Encoding"))
			}
			if n := rec.Header().Get("Content-Length"); n != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("%s: Content-Length %q for a %d-byte body", path, n, rec.Body.Len())
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr) // fails on a bad CRC or length
			if err != nil {
				t.Fatalf("%s (render %d): %v", path, i+1, err)
			}
			if !bytes.Equal(got, plain.Body.Bytes()) {
				t.Fatalf("%s (render %d): decompressed page (%d bytes) differs from the plain one (%d bytes) at byte %d",
					path, i+1, len(got), plain.Body.Len(), diffAt(got, plain.Body.Bytes()))
			}
		}
	}
	// The parts really were spliced: the bodies are kept compressed, for both page kinds.
	for _, key := range []string{"body:" + benchCard + ":deeper:anchors", "body:" + benchCard + ":basics"} {
		if e, ok := e.srv.figures.entry(e.srv.deck(), key); !ok || e.part == nil {
			t.Errorf("no compressed part kept under %s", key)
		}
	}
}

func diffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// get and put are the tests' short forms of entry and store for plain markup.
func (f *figureCache) get(d *deck.Deck, key string) ([]byte, bool) {
	e, ok := f.entry(d, key)
	return e.html, ok && e.html != nil
}

func (f *figureCache) put(d *deck.Deck, key string, b []byte) { f.store(d, key, cacheEntry{html: b}) }

// The bound counts keys too: a signed-in page's key spells out its inputs and can be larger
// than the page.
func TestFigureCacheCountsItsKeys(t *testing.T) {
	t.Parallel()
	f := figureCache{max: 4096}
	d := &deck.Deck{}
	for i := range 10 {
		f.put(d, fmt.Sprintf("%04d%s", i, strings.Repeat("k", 996)), []byte(strings.Repeat("x", 100)))
		if f.bytes > 4096 || len(f.m) > 3 {
			t.Fatalf("after %d entries of 1,100 bytes the cache holds %d of them, %d bytes by its count", i+1, len(f.m), f.bytes)
		}
	}
}
