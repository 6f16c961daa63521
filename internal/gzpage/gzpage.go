// Package gzpage builds a gzip response out of pieces: parts compressed once and kept (a
// card's body, its figure), spliced in verbatim, and the markup around them, which differs per
// user. That markup is compressed in segments (from one part to the next) at the fastest level,
// and a Memo keeps each segment's compressed form by its bytes, so a user's page header, seen
// again, costs a look-up rather than a compression. Markup that changes on every request (a
// timestamp) goes in stored blocks of its own, so it does not spoil the segments around it.
//
// Splicing works because of how deflate streams are cut: a part or segment is compressed by a
// fresh compressor (no back-reference reaches before its start) and ended with a sync flush
// (byte aligned, not final), so its blocks can follow any byte-aligned block boundary; stored
// blocks keep that alignment. The gzip trailer's CRC-32 is combined from the pieces' CRCs, so a
// part need not keep its uncompressed bytes.
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

// NewPart compresses markup for splicing, at the best level: it is done once per part, but a
// server makes a part for each card body it shows (1,000 on a first pass through the deck), so
// the writer, a megabyte of tables, comes from a pool rather than being made for each.
func NewPart(markup []byte) *Part {
	var b bytes.Buffer
	fw := partWriters.Get().(*flate.Writer)
	fw.Reset(&b)
	fw.Write(markup) // a bytes.Buffer does not fail
	fw.Flush()
	fw.Reset(io.Discard) // hold no buffer of ours while pooled
	partWriters.Put(fw)
	return &Part{deflated: bytes.Clone(b.Bytes()), crc: crc32.ChecksumIEEE(markup), size: int64(len(markup))}
}

var partWriters = sync.Pool{New: func() any {
	fw, _ := flate.NewWriter(io.Discard, flate.BestCompression) // the level is valid: no error
	return fw
}}

// Bytes is the memory the part holds.
func (p *Part) Bytes() int { return len(p.deflated) }

// Len is the length of the markup the part decompresses to.
func (p *Part) Len() int64 { return p.size }

// Writer assembles one gzip stream in memory. Markup written to it is held until the next part
// (or Close) and then compressed as one segment, or taken from a Memo that has seen the same
// bytes before; Splice appends a part; WriteVolatile adds markup that differs on every request
// (a timestamp) uncompressed, so the segments around it stay the same.
type Writer struct {
	out    *bytes.Buffer
	memo   *Memo
	seg    *[]byte // markup written since the last piece, not compressed yet
	crc    uint32
	size   int64
	closed bool
	rec    *recording // nil unless Record was called
}

// Each response compresses with a writer from the pool: a flate.Writer holds about a megabyte
// of tables, too much to allocate per request.
var writers = sync.Pool{New: func() any {
	fw, _ := flate.NewWriter(io.Discard, flate.BestSpeed)
	return fw
}}

var segments = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// gzipHeader is a minimal gzip member header: deflate, no name, no time, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// finalBlock is an empty final block with fixed codes: BFINAL=1, BTYPE=01, end of block.
var finalBlock = []byte{0x03, 0x00}

// NewWriter starts a gzip stream at the end of out; memo (nil for none) keeps compressed
// segments across streams. Call Close to finish it.
func NewWriter(out *bytes.Buffer, memo *Memo) *Writer {
	out.Write(gzipHeader)
	return &Writer{out: out, memo: memo, seg: segments.Get().(*[]byte)}
}

// Write adds markup to the stream. It fails only after Close.
func (w *Writer) Write(p []byte) (int, error) {
	if w.closed {
		return 0, errClosed
	}
	*w.seg = append(*w.seg, p...)
	return len(p), nil
}

// WriteVolatile adds markup that changes with every stream, uncompressed (stored blocks) and
// apart from the segments before and after it.
func (w *Writer) WriteVolatile(p []byte) (int, error) {
	if w.closed {
		return 0, errClosed
	}
	w.endSegment()
	if w.rec != nil {
		w.rec.hole(w.out.Len(), p)
	}
	w.stored(p)
	return len(p), nil
}

// Splice appends a part's compressed blocks, as if its markup had been written.
func (w *Writer) Splice(p *Part) error {
	if w.closed {
		return errClosed
	}
	w.endSegment()
	start := w.out.Len()
	w.out.Write(p.deflated)
	w.crc = Combine(w.crc, p.crc, p.size)
	w.size += p.size
	w.rec.fixed(start, w.out.Len(), p.crc, p.size)
	return nil
}

// Close ends the stream with a final block and the gzip trailer.
func (w *Writer) Close() error {
	if w.closed {
		return errClosed
	}
	w.endSegment()
	if w.rec != nil {
		w.rec.finish(w.out.Bytes())
	}
	w.closed = true
	*w.seg = (*w.seg)[:0]
	segments.Put(w.seg)
	w.seg = nil
	w.out.Write(finalBlock)
	var t [8]byte
	binary.LittleEndian.PutUint32(t[:4], w.crc)
	binary.LittleEndian.PutUint32(t[4:], uint32(w.size)) // ISIZE is the length modulo 2^32
	w.out.Write(t[:])
	return nil
}

// minSegment is the shortest segment worth compressing: below it, stored costs less than the
// block header and code tables a compressed block needs.
const minSegment = 64

// endSegment writes the markup held since the last piece: from the memo when it has these
// bytes, else compressed (and offered to the memo) or, when short, stored.
func (w *Writer) endSegment() {
	seg := *w.seg
	if len(seg) == 0 {
		return
	}
	*w.seg = seg[:0]
	w.crc = crc32.Update(w.crc, crc32.IEEETable, seg)
	w.size += int64(len(seg))
	start := w.out.Len()
	w.writeSegment(seg)
	if w.rec != nil {
		w.rec.fixed(start, w.out.Len(), crc32.ChecksumIEEE(seg), int64(len(seg)))
	}
}

// writeSegment writes seg's blocks.
func (w *Writer) writeSegment(seg []byte) {
	if len(seg) < minSegment {
		w.writeStored(seg)
		return
	}
	if d := w.memo.lookup(seg); d != nil {
		w.out.Write(d)
		return
	}
	start := w.out.Len()
	fw := writers.Get().(*flate.Writer)
	fw.Reset(w.out) // a fresh compressor: nothing refers back before the segment
	fw.Write(seg)   // a bytes.Buffer does not fail
	fw.Flush()      // byte aligned, not final
	fw.Reset(io.Discard)
	writers.Put(fw)
	w.memo.store(seg, w.out.Bytes()[start:])
}

// stored writes volatile markup as stored blocks.
func (w *Writer) stored(p []byte) {
	w.crc = crc32.Update(w.crc, crc32.IEEETable, p)
	w.size += int64(len(p))
	w.writeStored(p)
}

// writeStored writes p as stored blocks: each a header byte (BFINAL=0, BTYPE=00; the stream is
// byte aligned here, so the header's padding fills the byte), LEN and its complement, the bytes.
func (w *Writer) writeStored(p []byte) {
	for len(p) > 0 {
		n := min(len(p), 0xffff)
		w.out.Write([]byte{0, byte(n), byte(n >> 8), ^byte(n), ^byte(n >> 8)})
		w.out.Write(p[:n])
		p = p[n:]
	}
}

type closedError struct{}

func (closedError) Error() string { return "gzpage: write after Close" }

var errClosed error = closedError{}
