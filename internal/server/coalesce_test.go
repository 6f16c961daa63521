package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// countingListener counts the writes its connections make to the socket.
type countingListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, &l.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1) // before the bytes reach the client, which then counts
	return c.Conn.Write(p)
}

// A gzipped page bigger than net/http's 4 KB connection buffer goes out in one write, header
// and body, over a kept-alive connection that carries on serving other responses normally.
func TestWholePagesGoOutInOneWrite(t *testing.T) {
	e := newBenchEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counted := &countingListener{Listener: ln}
	hs := &http.Server{Handler: e.h, ConnContext: ConnContext}
	go hs.Serve(CoalescingListener(counted))
	t.Cleanup(func() { hs.Close() })
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxConnsPerHost: 1}}
	base := "http://" + ln.Addr().String()

	get := func(method, path string, gz, signedIn bool) (*http.Response, []byte, int64) {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip") // set by hand: the transport leaves the body alone
		}
		if signedIn {
			req.AddCookie(e.cookie)
		}
		before := counted.writes.Load()
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, err)
		}
		return resp, body, counted.writes.Load() - before
	}
	for i, page := range []struct {
		path     string
		signedIn bool
	}{{"/cards/" + benchCard, true}, {"/cards/" + benchCard, false}, {"/study", true}, {"/cards/" + benchCard, true}} {
		get(http.MethodGet, page.path, true, page.signedIn) // the first view builds what is cached
		resp, body, writes := get(http.MethodGet, page.path, true, page.signedIn)
		if n, _ := strconv.Atoi(resp.Header.Get("Content-Length")); n != len(body) || resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: Content-Length %q for %d bytes, encoding %q", page.path, resp.Header.Get("Content-Length"), len(body), resp.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", page.path, err)
		}
		if page.path != "/study" && len(body) < 4096 {
			t.Fatalf("%s is %d bytes gzipped: too small to test anything", page.path, len(body))
		}
		if writes != 1 {
			t.Errorf("request %d, %s (%d bytes): %d writes, want 1", i, page.path, len(body), writes)
		}
		// Responses written the ordinary way still work on the same connection.
		get(http.MethodGet, page.path, false, page.signedIn)
		get(http.MethodHead, page.path, true, page.signedIn)
		get(http.MethodGet, e.srv.assets.URL("app.css"), true, false)
	}
}
