package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// segmentListener keeps its connections, so a test can read how many TCP segments with data
// each has sent (Linux's TCP_INFO): what a client sees as separate writes.
type segmentListener struct {
	net.Listener
	mu    sync.Mutex
	conns []*net.TCPConn
}

func (l *segmentListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.mu.Lock()
		l.conns = append(l.conns, c.(*net.TCPConn))
		l.mu.Unlock()
	}
	return c, err
}

// dataSegments sums the data segments sent so far on every connection.
func (l *segmentListener) dataSegments(t *testing.T) int64 {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for _, c := range l.conns {
		raw, err := c.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var info *unix.TCPInfo
		var ierr error
		if err := raw.Control(func(fd uintptr) { info, ierr = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO) }); err != nil || ierr != nil {
			t.Fatalf("TCP_INFO: %v %v", err, ierr)
		}
		n += int64(info.Data_segs_out)
	}
	return n
}

// A gzipped page bigger than net/http's 4 KB connection buffer goes out in one TCP segment,
// header and body (one write, or one writev when its tail goes by reference), over a
// kept-alive connection that carries on serving other responses normally. Loopback's segments
// hold 64 KB, so two writes would be two segments: TCP_NODELAY sends each at once.
func TestWholePagesGoOutInOneWrite(t *testing.T) {
	e := newBenchEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counted := &segmentListener{Listener: ln}
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
		before := counted.dataSegments(t)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, err)
		}
		return resp, body, counted.dataSegments(t) - before
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
			t.Errorf("request %d, %s (%d bytes): %d segments, want 1", i, page.path, len(body), writes)
		}
		// Responses written the ordinary way still work on the same connection.
		get(http.MethodGet, page.path, false, page.signedIn)
		get(http.MethodHead, page.path, true, page.signedIn)
		get(http.MethodGet, e.srv.assets.URL("app.css"), true, false)
	}
}

// While a page is held, the part net/http passes on as the page's own bytes is kept by
// reference, not copied, and everything still goes out in the order it was written.
func TestCoalescingConnKeepsThePageTailByReference(t *testing.T) {
	server, client := net.Pipe()
	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(client); got <- b }()
	c := &coalescingConn{Conn: server}
	page := bytes.Repeat([]byte("0123456789"), 1000)
	head := append([]byte("HTTP/1.1 200 OK\r\n\r\n"), page[:3000]...) // as net/http's buffer holds it

	c.hold(page)
	for _, p := range [][]byte{head, page[3000:]} {
		if n, err := c.Write(p); n != len(p) || err != nil {
			t.Fatalf("held write: %d %v", n, err)
		}
	}
	if len(*c.held) != len(head) || len(c.tail) != len(page)-3000 || &c.tail[0] != &page[3000] {
		t.Fatalf("held %d bytes copied and %d by reference, want %d and the page's last %d", len(*c.held), len(c.tail), len(head), len(page)-3000)
	}
	if _, err := c.Write([]byte("after")); err != nil { // a write after the tail sends it first
		t.Fatal(err)
	}
	if err := c.release(); err != nil {
		t.Fatal(err)
	}
	if c.Write(page[9000:]); c.tail != nil { // not holding: the page's bytes pass through
		t.Fatal("a write after release was held")
	}
	c.Close()
	want := append(append(append([]byte{}, head...), page[3000:]...), "after"...)
	want = append(want, page[9000:]...)
	if b := <-got; !bytes.Equal(b, want) {
		t.Fatalf("the client read %d bytes, want %d in order", len(b), len(want))
	}
}
