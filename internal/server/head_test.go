package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"testing"
)

// TestHeadAndContentLength: HEAD answers like GET without a body, and pages say their length,
// identity and gzip alike (the length spares the chunked encoding's closing write).
func TestHeadAndContentLength(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	e.signedIn("ada", "admin") // setup done, so the card page is served rather than the setup redirect
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	do := func(method, enc string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, e.ts.URL+"/cards/sample-eager", nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	for _, enc := range []string{"", "gzip"} {
		for range 2 { // the first anonymous view renders and caches the page, the second is served from the cache
			get, body := do(http.MethodGet, enc)
			if get.StatusCode != 200 || get.Header.Get("Content-Encoding") != enc {
				t.Fatalf("GET (%q): %d, encoding %q", enc, get.StatusCode, get.Header.Get("Content-Encoding"))
			}
			if n, err := strconv.Atoi(get.Header.Get("Content-Length")); err != nil || n != len(body) {
				t.Fatalf("GET (%q): Content-Length %q for a %d-byte body", enc, get.Header.Get("Content-Length"), len(body))
			}
			if enc == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if _, err := io.ReadAll(zr); err != nil {
					t.Fatalf("gzip body does not decompress: %v", err)
				}
			}
			head, hb := do(http.MethodHead, enc)
			if head.StatusCode != 200 || len(hb) != 0 || head.Header.Get("Content-Type") != get.Header.Get("Content-Type") {
				t.Fatalf("HEAD (%q): %d, %d body bytes, type %q", enc, head.StatusCode, len(hb), head.Header.Get("Content-Type"))
			}
		}
	}
}
