package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-chi/chi/v5"
)

// lockedBuffer collects log output written from the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The outer frame, around handlers of its own: each response has the security headers, a panic
// is a plain 500, and the log line and the metrics carry the status and size actually sent.
func TestFrameRecordsWhatWasSent(t *testing.T) {
	e := newEnv(t, Config{})
	var logs lockedBuffer
	e.srv.log = slog.New(slog.NewTextHandler(&logs, nil))
	r := chi.NewRouter()
	r.Use(e.srv.frame)
	r.Get("/two-writes", func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "hello ")
		io.WriteString(w, "world")
	})
	r.Get("/teapot", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.WriteHeader(http.StatusOK) // ignored by net/http, and by the record
	})
	r.Get("/silent", func(http.ResponseWriter, *http.Request) {})
	r.Get("/boom", func(http.ResponseWriter, *http.Request) { panic("secret detail") })
	ts := httptest.NewServer(r)
	defer ts.Close()

	for _, c := range []struct {
		path, line string
		code       int
		body       string
	}{
		{"/two-writes", "status=200 bytes=11", 200, "hello world"},
		{"/teapot", "status=418 bytes=0", 418, ""},
		{"/silent", "status=200 bytes=0", 200, ""},
		{"/boom", "status=500", 500, ""},
	} {
		resp, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("%s: status %d, want %d", c.path, resp.StatusCode, c.code)
		}
		if c.body != "" && string(body) != c.body {
			t.Errorf("%s: body %q", c.path, body)
		}
		if strings.Contains(string(body), "secret detail") || strings.Contains(string(body), "goroutine") {
			t.Errorf("%s: the panic reached the client: %q", c.path, body)
		}
		for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"} {
			if resp.Header.Get(h) == "" {
				t.Errorf("%s: no %s header", c.path, h)
			}
		}
		var line string
		for l := range strings.Lines(logs.String()) {
			if strings.Contains(l, "msg=request") && strings.Contains(l, "path="+c.path+" ") {
				line = l
			}
		}
		if !strings.Contains(line, "route="+c.path+" ") || !strings.Contains(line, c.line) {
			t.Errorf("%s: log line %q lacks %q", c.path, line, c.line)
		}
	}
	rec := httptest.NewRecorder()
	e.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, c := range []struct{ route, code string }{{"/two-writes", "200"}, {"/teapot", "418"}, {"/silent", "200"}, {"/boom", "500"}} {
		want := `rehearse_http_requests_total{code="` + c.code + `",method="GET",route="` + c.route + `"} 1`
		if !strings.Contains(rec.Body.String(), want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
		if want := `rehearse_http_request_duration_seconds_count{method="GET",route="` + c.route + `"} 1`; !strings.Contains(rec.Body.String(), want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
}
