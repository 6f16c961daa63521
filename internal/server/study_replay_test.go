package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The study page replayed from its template (userpage.go) is, at every later moment, exactly
// the page rendered afresh then: the question's shown_at is new and nothing else is stale.
func TestStudyPageReplayIsTheFreshPage(t *testing.T) {
	e, c, _ := studyEnv(t, "a:x:one", "a:x:two")
	u, _ := url.Parse(e.ts.URL)
	cookies := c.Jar.Cookies(u)
	h := e.srv.Handler()
	fetch := func(path, enc string) (body []byte, gzipped bool) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for _, ck := range cookies {
			req.AddCookie(ck)
		}
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", path, rec.Code)
		}
		if rec.Header().Get("Content-Encoding") != "gzip" {
			return rec.Body.Bytes(), false
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr) // checks the CRC and length
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return b, true
	}
	for _, path := range []string{"/study", "/study?card=two", "/study?card=one&reveal=1", "/study?topic=a"} {
		fetch(path, "gzip") // renders and keeps the template
		for step := range 3 {
			e.now = e.now.Add(1234 * time.Millisecond)
			got, gz := fetch(path, "gzip")
			want, _ := fetch(path, "")
			if !gz {
				t.Fatalf("%s: not gzipped", path)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, step %d: the replayed page differs from the fresh one at byte %d", path, step, diffAt(got, want))
			}
			if shown := `name="shown_at" value="` + strconv.FormatInt(e.now.UnixMilli(), 10) + `"`; !strings.Contains(string(got), shown) {
				t.Fatalf("%s, step %d: no %s in the page", path, step, shown)
			}
		}
	}
	templates := 0
	for _, entry := range e.srv.userPages.m {
		if entry.tmpl != nil {
			templates++
		}
	}
	if templates < 4 {
		t.Fatalf("%d study pages kept as templates, want one per path: the replay was not tested", templates)
	}
}
