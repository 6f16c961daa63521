package server

import (
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// compress gzips responses of the given media types for clients that accept gzip. It takes a
// pooled writer only once a response turns out to need one: chi's Compress reset a level-5
// writer (hundreds of kilobytes of tables) on every request, including the pages that arrive
// already compressed (cached anonymous pages, gzpage) and the small ones.
func compress(level int, types ...string) func(http.Handler) http.Handler {
	allowed := make(map[string]bool, len(types))
	for _, t := range types {
		allowed[t] = true
	}
	pool := sync.Pool{New: func() any {
		zw, _ := gzip.NewWriterLevel(io.Discard, level) // the level is a constant that is valid
		return zw
	}}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !acceptsGzip(r) {
				next.ServeHTTP(w, r)
				return
			}
			cw := &gzipWriter{ResponseWriter: w, allowed: allowed, pool: &pool}
			defer cw.finish()
			next.ServeHTTP(cw, r)
		})
	}
}

// gzipWriter decides at WriteHeader whether to compress: not when the handler set its own
// Content-Encoding, nor for other media types, nor for responses without a body.
type gzipWriter struct {
	http.ResponseWriter
	allowed     map[string]bool
	pool        *sync.Pool
	zw          *gzip.Writer // nil until a response is compressed
	wroteHeader bool
}

func (c *gzipWriter) WriteHeader(code int) {
	if c.wroteHeader {
		c.ResponseWriter.WriteHeader(code)
		return
	}
	c.wroteHeader = true
	h := c.Header()
	if h.Get("Content-Encoding") == "" && bodyAllowed(code) && c.allowed[mediaType(h.Get("Content-Type"))] {
		h.Set("Content-Encoding", "gzip")
		h.Add("Vary", "Accept-Encoding")
		h.Del("Content-Length") // the length compressed is not known yet
		c.zw = c.pool.Get().(*gzip.Writer)
		c.zw.Reset(c.ResponseWriter)
	}
	c.ResponseWriter.WriteHeader(code)
}

// mediaType is a Content-Type without its parameters, lower-cased; "" when malformed.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return ""
	}
	return mt
}

func bodyAllowed(code int) bool {
	return code >= 200 && code != http.StatusNoContent && code != http.StatusNotModified
}

func (c *gzipWriter) Write(p []byte) (int, error) {
	if !c.wroteHeader {
		c.WriteHeader(http.StatusOK)
	}
	if c.zw != nil {
		return c.zw.Write(p)
	}
	return c.ResponseWriter.Write(p)
}

// Flush sends what is compressed so far, for a handler that streams.
func (c *gzipWriter) Flush() {
	if c.zw != nil {
		c.zw.Flush()
	}
	http.NewResponseController(c.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (c *gzipWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

func (c *gzipWriter) finish() {
	if c.zw == nil {
		return
	}
	c.zw.Close()
	c.zw.Reset(io.Discard) // keep no reference to this response in the pool
	c.pool.Put(c.zw)
	c.zw = nil
}
