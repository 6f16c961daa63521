package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
)

// net/http writes a response through a fixed 4 KB connection buffer: a 12 KB page goes out in
// two write syscalls (the buffer, then the rest), and on a busy server those writes were a third
// of a signed-in page's CPU; nginx sends header and body in one. A page that is already complete
// in memory (gzipped: cached or spliced) is sent through a connection that holds its writes
// while the handler writes and flushes it, then sends them together, in one syscall.

// CoalescingListener wraps a listener's connections so that sendPage can send a response in
// one write. Serve it with ConnContext set on the http.Server.
func CoalescingListener(l net.Listener) net.Listener { return coalescingListener{l} }

// ConnContext is for http.Server.ConnContext: it lets a handler reach its connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*coalescingConn); ok {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

type connKey struct{}

type coalescingListener struct{ net.Listener }

func (l coalescingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &coalescingConn{Conn: c}, nil
}

// maxHeld bounds what a connection holds; a bigger response goes out as net/http writes it.
const maxHeld = 256 << 10

// coalescingConn passes writes through, except between hold and release, when it keeps them.
// net/http hands its connection the page's tail as the page's own bytes (what did not fit its
// 4 KB buffer): that part is kept by reference, not copied, and sent after the copied head in
// the same writev. The page is the caller's until release, so it cannot change meanwhile.
type coalescingConn struct {
	net.Conn
	mu      sync.Mutex
	holding bool
	held    *[]byte // lent from heldBuffers while holding
	page    []byte  // what sendPage is sending, while holding
	tail    []byte  // held by reference: the end of page, sent after held
}

// heldBuffers lends connections their buffer for one response: an idle kept-alive connection
// holds none.
var heldBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

func (c *coalescingConn) hold(page []byte) {
	c.mu.Lock()
	c.holding, c.page = true, page
	if c.held == nil {
		c.held = heldBuffers.Get().(*[]byte)
	}
	c.mu.Unlock()
}

// release sends what was held, in one write.
func (c *coalescingConn) release() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.holding, c.page = false, nil
	return c.sendHeld()
}

// isTailOf reports whether p is the end of page, the same bytes in memory: a slice ending at
// page's last byte is page[len(page)-len(p):].
func isTailOf(p, page []byte) bool {
	return len(p) > 0 && len(p) <= len(page) && &p[len(p)-1] == &page[len(page)-1]
}

// sendHeld writes what is held and, unless still holding, gives the buffer back.
func (c *coalescingConn) sendHeld() error {
	if c.held == nil {
		return nil
	}
	var err error
	switch {
	case c.tail != nil:
		bufs := net.Buffers{*c.held, c.tail} // one writev
		_, err = bufs.WriteTo(c.Conn)
		*c.held, c.tail = (*c.held)[:0], nil
	case len(*c.held) > 0:
		_, err = c.Conn.Write(*c.held)
		*c.held = (*c.held)[:0]
	}
	if !c.holding {
		if cap(*c.held) <= 64<<10 { // a big response's buffer is not kept for the next
			heldBuffers.Put(c.held)
		}
		c.held = nil
	}
	return err
}

func (c *coalescingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.holding && c.tail == nil {
		if isTailOf(p, c.page) {
			c.tail = p
			return len(p), nil
		}
		if len(*c.held)+len(p) <= maxHeld {
			*c.held = append(*c.held, p...)
			return len(p), nil
		}
	}
	if err := c.sendHeld(); err != nil {
		return 0, err
	}
	return c.Conn.Write(p)
}

// ReadFrom keeps the connection's own (sendfile for static files).
func (c *coalescingConn) ReadFrom(r io.Reader) (int64, error) {
	c.mu.Lock()
	err := c.sendHeld()
	c.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}

// CloseWrite is the TCP half-close net/http uses before closing a connection.
func (c *coalescingConn) CloseWrite() error {
	c.mu.Lock()
	err := c.sendHeld()
	c.mu.Unlock()
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok && err == nil {
		return cw.CloseWrite()
	}
	return err
}

func (c *coalescingConn) Close() error {
	c.mu.Lock()
	c.sendHeld()
	c.mu.Unlock()
	return c.Conn.Close()
}

// sendPage is writeHTML for a body that is final as it is (already gzipped: the compression
// middleware passes it through), sent in one write when the connection allows it.
func sendPage(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	c, _ := r.Context().Value(connKey{}).(*coalescingConn)
	if c == nil {
		writeHTML(w, status, body)
		return
	}
	c.hold(body)
	defer c.release() // also when a write panics: the connection must not keep holding
	writeHTML(w, status, body)
	http.NewResponseController(w).Flush() // everything net/http buffered reaches c
}
