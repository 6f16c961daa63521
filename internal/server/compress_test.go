package server

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestCompressOnlyWhatNeedsIt(t *testing.T) {
	t.Parallel()
	page := strings.Repeat("<p>a page worth compressing</p>", 100)
	h := compressed()(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, page[:1000])
			io.WriteString(w, page[1000:]) // several writes, one stream
		case "/own":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte(page))
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte(page))
		}
	}))
	get := func(path, enc string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", path, nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}

	rec := get("/html", "gzip, br")
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("html for a gzip client: headers %v", rec.Header())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(zr); err != nil || string(b) != page {
		t.Fatalf("html decompressed: %d bytes, err %v", len(b), err)
	}
	for _, enc := range []string{"", "gzip;q=0", "identity, gzip;q=0.0", "br"} {
		if rec := get("/html", enc); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != page {
			t.Fatalf("Accept-Encoding %q: got a compressed page", enc)
		}
	}
	if rec := get("/own", "gzip"); rec.Body.String() != page {
		t.Fatal("a response with its own encoding was compressed again")
	}
	if rec := get("/png", "gzip"); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != page {
		t.Fatal("a media type not listed was compressed")
	}
}
