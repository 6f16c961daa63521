// Package gzpage builds a gzip response out of pieces: parts compressed once and kept (a
// card's body, its figure), spliced in verbatim, and the markup around them, which differs per
// user and is compressed per request at the fastest level. A page then costs the compression
// of its few per-user kilobytes rather than of all its eighty.
//
// Splicing works because of how deflate streams are cut: a part is compressed by a fresh
// compressor (no back-reference reaches before its start) and ended with a sync flush (byte
// aligned, not final), so its blocks can follow any byte-aligned block boundary. The writer
// flushes its own compressor the same way before a part and starts it afresh after one, so
// nothing it writes later refers back into the part. The gzip trailer's CRC-32 is combined from
// the pieces' CRCs, so a part need not keep its uncompressed bytes.
package gzpage

import (
	"bytes"
	"encoding/binary"
	"github.com/klauspost/compress/flate"
	"hash/crc32"
	"io"
	"sync"
)

// Part is markup compressed once, ready to splice into any page's gzip stream.
type Part struct {
	deflated []byte // non-final deflate blocks ending byte aligned (a sync flush)
	crc      uint32 // CRC-32 (IEEE) of the markup
	size     int64  // length of the markup
}

// NewPart compresses markup for splicing, at the best level: it is done once per part.
func NewPart(markup []byte) *Part {
	var b bytes.Buffer
	fw, _ := flate.NewWriter(&b, flate.BestCompression) // the level is valid: no error
	fw.Write(markup)                                    // a bytes.Buffer does not fail
	fw.Flush()
	return &Part{deflated: bytes.Clone(b.Bytes()), crc: crc32.ChecksumIEEE(markup), size: int64(len(markup))}
}

// Bytes is the memory the part holds.
func (p *Part) Bytes() int { return len(p.deflated) }

// Len is the length of the markup the part decompresses to.
func (p *Part) Len() int64 { return p.size }

// Writer assembles one gzip stream in memory: Write compresses, Splice appends a part.
type Writer struct {
	out   *bytes.Buffer
	fw    *flate.Writer
	crc   uint32
	size  int64
	fresh bool // fw has had no input since it was last reset: a splice needs no flush first
}

// Each response compresses with a writer from the pool: a flate.Writer holds about a megabyte
// of tables, too much to allocate per request.
var writers = sync.Pool{New: func() any {
	fw, _ := flate.NewWriter(io.Discard, flate.BestSpeed)
	return fw
}}

// gzipHeader is a minimal gzip member header: deflate, no name, no time, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// NewWriter starts a gzip stream at the end of out. Call Close to finish it.
func NewWriter(out *bytes.Buffer) *Writer {
	out.Write(gzipHeader)
	fw := writers.Get().(*flate.Writer)
	fw.Reset(out)
	return &Writer{out: out, fw: fw, fresh: true}
}

// Write compresses p into the stream. It fails only after Close.
func (w *Writer) Write(p []byte) (int, error) {
	if w.fw == nil {
		return 0, errClosed
	}
	if len(p) == 0 {
		return 0, nil
	}
	w.crc = crc32.Update(w.crc, crc32.IEEETable, p)
	w.size += int64(len(p))
	w.fresh = false
	return w.fw.Write(p)
}

// Splice appends a part's compressed blocks, as if its markup had been written.
func (w *Writer) Splice(p *Part) error {
	if w.fw == nil {
		return errClosed
	}
	if !w.fresh {
		if err := w.fw.Flush(); err != nil { // byte aligned, and everything so far is in out
			return err
		}
		w.fw.Reset(w.out) // what follows must not refer back across the part
		w.fresh = true
	}
	w.out.Write(p.deflated)
	w.crc = Combine(w.crc, p.crc, p.size)
	w.size += p.size
	return nil
}

// Close ends the stream with a final block and the gzip trailer, and returns the compressor
// to the pool.
func (w *Writer) Close() error {
	if w.fw == nil {
		return errClosed
	}
	err := w.fw.Close()
	w.fw.Reset(io.Discard) // keep no reference to this response's buffer in the pool
	writers.Put(w.fw)
	w.fw = nil
	if err != nil {
		return err
	}
	var t [8]byte
	binary.LittleEndian.PutUint32(t[:4], w.crc)
	binary.LittleEndian.PutUint32(t[4:], uint32(w.size)) // ISIZE is the length modulo 2^32
	w.out.Write(t[:])
	return nil
}

type closedError struct{}

func (closedError) Error() string { return "gzpage: write after Close" }

var errClosed error = closedError{}
