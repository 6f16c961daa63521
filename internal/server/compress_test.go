package server

import (
	"bytes"
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
	h := compress(5, "text/html")(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Length", "3100")
			io.WriteString(w, page[:1000])
			io.WriteString(w, page[1000:]) // several writes, one stream
		case "/own":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte("already compressed bytes"))
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			w.Write([]byte("png bytes"))
		case "/empty":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNoContent)
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
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Content-Length") != "" ||
		rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("html for a gzip client: headers %v", rec.Header())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(zr); err != nil || string(b) != page {
		t.Fatalf("html decompressed: %d bytes, err %v", len(b), err)
	}
	if rec := get("/html", ""); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != page {
		t.Fatal("client without gzip got a compressed page")
	}
	if rec := get("/own", "gzip"); rec.Body.String() != "already compressed bytes" {
		t.Fatalf("a response with its own encoding was compressed again: %q", rec.Body.Bytes())
	}
	if rec := get("/png", "gzip"); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "png bytes" {
		t.Fatal("a media type not listed was compressed")
	}
	if rec := get("/empty", "gzip"); rec.Header().Get("Content-Encoding") != "" || rec.Body.Len() != 0 {
		t.Fatalf("a 204 got an encoding or a body: %v %q", rec.Header(), rec.Body.Bytes())
	}
	// Pooled writers carry nothing from one response to the next.
	for range 3 {
		zr, _ := gzip.NewReader(bytes.NewReader(get("/html", "gzip").Body.Bytes()))
		if b, _ := io.ReadAll(zr); string(b) != page {
			t.Fatal("a pooled writer mixed responses")
		}
	}
}
