package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logBuffer batches log lines into one write every interval (or every 32 KB) instead of one
// write per request: the access log was a syscall on every page served. Warnings and errors
// are written at once (flushingHandler), and Close writes what is left.
type logBuffer struct {
	mu   sync.Mutex
	w    io.Writer
	buf  []byte
	stop chan struct{}
	done chan struct{}
}

const logBufferFlushAt = 32 << 10

func newLogBuffer(w io.Writer, every time.Duration) *logBuffer {
	b := &logBuffer{w: w, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				b.Flush()
			case <-b.stop:
				return
			}
		}
	}()
	return b
}

// Write keeps a copy of p; slog hands over one whole record per call.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) >= logBufferFlushAt {
		b.flushLocked()
	}
	return len(p), nil
}

func (b *logBuffer) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

func (b *logBuffer) flushLocked() {
	if len(b.buf) > 0 {
		b.w.Write(b.buf) // a log that cannot be written has nowhere to report it
		b.buf = b.buf[:0]
	}
}

// Close stops the timer and writes what is buffered.
func (b *logBuffer) Close() {
	close(b.stop)
	<-b.done
	b.Flush()
}

// flushingHandler writes the buffer as soon as a warning or an error is logged, so the lines
// that matter most are never the ones waiting.
type flushingHandler struct {
	slog.Handler
	buf *logBuffer
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		h.buf.Flush()
	}
	return err
}

func (h flushingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(as), h.buf}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.buf}
}
