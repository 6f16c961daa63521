package main

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe to read while the flusher goroutine writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestLogBufferHoldsInfoFlushesWarningsAndOnClose(t *testing.T) {
	out := &syncBuffer{}
	buf := newLogBuffer(out, time.Hour) // the ticker never fires within the test
	log := slog.New(flushingHandler{slog.NewTextHandler(buf, nil), buf}).With("app", "rehearse")

	log.Info("request", "path", "/a")
	if got := out.String(); got != "" {
		t.Fatalf("an info line was written at once: %q", got)
	}
	log.Warn("slow", "path", "/b")
	got := out.String()
	if !strings.Contains(got, "path=/a") || !strings.Contains(got, "path=/b") || !strings.Contains(got, "app=rehearse") {
		t.Fatalf("a warning did not write the buffered lines in order: %q", got)
	}
	if strings.Index(got, "path=/a") > strings.Index(got, "path=/b") {
		t.Fatalf("lines out of order: %q", got)
	}
	log.Info("request", "path", "/c")
	buf.Close()
	if !strings.Contains(out.String(), "path=/c") {
		t.Fatalf("Close lost a buffered line: %q", out.String())
	}
}

func TestLogBufferWritesWhenFull(t *testing.T) {
	out := &syncBuffer{}
	buf := newLogBuffer(out, time.Hour)
	defer buf.Close()
	line := strings.Repeat("x", 1000) + "\n"
	for range logBufferFlushAt/len(line) + 1 {
		buf.Write([]byte(line))
	}
	if n := len(out.String()); n < logBufferFlushAt {
		t.Fatalf("after %d buffered bytes only %d were written", logBufferFlushAt, n)
	}
}

func TestLogBufferTickerFlushes(t *testing.T) {
	out := &syncBuffer{}
	buf := newLogBuffer(out, 5*time.Millisecond)
	defer buf.Close()
	buf.Write([]byte("hello\n"))
	deadline := time.Now().Add(5 * time.Second)
	for out.String() == "" && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if out.String() != "hello\n" {
		t.Fatalf("the ticker did not write the line: %q", out.String())
	}
}
