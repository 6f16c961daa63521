package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
)

// A card page takes its figure from the cache: a figure planted there is what the next page
// shows, to anonymous and signed-in readers alike, and a reloaded deck renders its own again.
func TestCardPageFigureCached(t *testing.T) {
	t.Parallel()
	e := newBenchEnv(t)
	first := e.get("/cards/"+benchCard, false).Body.String()
	if !strings.Contains(first, `id="simulation"`) {
		t.Fatal("the card page has no simulation figure")
	}
	d := e.srv.deck()
	if _, ok := e.srv.figures.Get(d, "figure:"+benchCard); !ok {
		t.Fatal("the figure rendered for the first page was not kept")
	}
	e.srv.figures.Put(d, "figure:"+benchCard, []byte(`<p id="planted">from the cache</p>`))
	for _, signedIn := range []bool{false, true} {
		page := e.get("/cards/"+benchCard, signedIn).Body.String()
		if !strings.Contains(page, `id="planted"`) || strings.Contains(page, `id="simulation"`) {
			t.Fatalf("signed in %v: the page rendered its figure again rather than taking the cached one", signedIn)
		}
	}
	e.srv.figures.Put(&deck.Deck{}, "other", []byte("x")) // as a reload does: the cache moves to another deck
	if page := e.get("/cards/"+benchCard, false).Body.String(); !strings.Contains(page, `id="simulation"`) {
		t.Fatal("after the cache moved to another deck, the page did not render its own figure")
	}
}

// Anonymous and signed-in readers get their own page, at the depth they ask for.
func TestCardPageAnonymousAndSignedIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	member := e.signedIn("ada", "member")
	anon := e.client()
	_, first := e.get(anon, "/cards/sample-eager")
	if first.Find("#login-link").Length() != 1 {
		t.Fatal("anonymous card page shows no login link")
	}
	_, deeper := e.get(anon, "/cards/sample-eager?depth=deeper")
	if _, ok := deeper.Find("#tier-deeper").Attr("checked"); !ok {
		t.Fatal("?depth=deeper served the basics page")
	}
	_, signed := e.get(member, "/cards/sample-eager")
	if signed.Find("a[href='/account']").Text() != "ada" || signed.Find("#login-link").Length() != 0 {
		t.Fatal("signed-in user got the anonymous page")
	}
}

// A page goes out gzipped to clients that accept gzip, and plain to the others, including a
// client that refuses gzip with q=0.
func TestCardPageGzip(t *testing.T) {
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
	_, plain := get("")
	resp, gz := get("gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("page not gzipped: %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, _ := io.ReadAll(zr)
	if !bytes.Equal(unzipped, plain) {
		t.Fatal("gzip body differs from the plain page")
	}
	for _, enc := range []string{"gzip;q=0", "gzip;q=0, identity", "br"} {
		if resp, again := get(enc); resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(again, plain) {
			t.Fatalf("Accept-Encoding %q: got encoding %q", enc, resp.Header.Get("Content-Encoding"))
		}
	}
}
