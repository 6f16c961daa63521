package gzpage

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// A Template is a stream recorded with its volatile markup left as holes: replayed with a new
// value in the holes, it is byte for byte the stream the same markup written afresh would give
// (segments compress the same way every time, and volatile markup is stored), at the cost of a
// copy and a few CRC combinations.
type Template struct {
	runs      []run    // the fixed pieces between holes: len(holes)+1
	holes     [][]byte // what each hole held when recorded
	holeShift uint32   // x^(8n) for n, the length of what the holes held (a new value most often has it too)
}

// run is consecutive fixed pieces: their compressed blocks, and the CRC and length of their
// markup, with shift, x^(8·size), the factor that appends them to a CRC (crc.go), worked out
// once rather than on every replay.
type run struct {
	deflated []byte
	crc      uint32
	size     int64
	shift    uint32
}

// Record makes the writer keep what it writes as a Template, returned by Recorded after Close.
func (w *Writer) Record() { w.rec = &recording{} }

// Recorded is the template of the closed stream, or nil if Record was not called.
func (w *Writer) Recorded() *Template {
	if w.rec == nil || !w.closed {
		return nil
	}
	return w.rec.t
}

// Bytes is the memory the template holds (what its slices have room for, not only their length).
func (t *Template) Bytes() int {
	n := 0
	for _, r := range t.runs {
		n += cap(r.deflated)
	}
	for _, h := range t.holes {
		n += cap(h)
	}
	return n
}

// Replay writes the recorded stream at the end of out with every hole's markup, which must be
// old, replaced by new. It reports false and writes nothing when a hole held anything else:
// that markup is not known, so the stream must be written afresh.
func (t *Template) Replay(out *bytes.Buffer, old, new []byte) bool {
	for _, h := range t.holes {
		if !bytes.Equal(h, old) {
			return false
		}
	}
	w := Writer{out: out, closed: true}
	out.Write(gzipHeader)
	newCRC := crc32.ChecksumIEEE(new)
	newShift := t.holeShift
	if len(new) != len(old) {
		newShift = xPow8n(int64(len(new)))
	}
	for i, r := range t.runs {
		out.Write(r.deflated)
		w.crc = mulModP(r.shift, w.crc) ^ r.crc // Combine(w.crc, r.crc, r.size)
		w.size += r.size
		if i < len(t.holes) {
			w.writeStored(new)
			w.crc = mulModP(newShift, w.crc) ^ newCRC
			w.size += int64(len(new))
		}
	}
	out.Write(finalBlock)
	var tr [8]byte
	binary.LittleEndian.PutUint32(tr[:4], w.crc)
	binary.LittleEndian.PutUint32(tr[4:], uint32(w.size))
	out.Write(tr[:])
	return true
}

// recording notes where each piece of a stream lies in its output while it is written.
type recording struct {
	spans []span
	t     *Template
}

// span is a fixed piece at out[start:end], or a hole and the markup it held.
type span struct {
	start, end int
	crc        uint32
	size       int64
	isHole     bool
	hole       []byte
}

// fixed notes a fixed piece; a nil recording notes nothing.
func (r *recording) fixed(start, end int, crc uint32, size int64) {
	if r != nil {
		r.spans = append(r.spans, span{start: start, end: end, crc: crc, size: size})
	}
}

func (r *recording) hole(at int, markup []byte) {
	r.spans = append(r.spans, span{start: at, isHole: true, hole: bytes.Clone(markup)})
}

// finish builds the template from the spans over the stream's output.
func (r *recording) finish(out []byte) {
	// Each run's blocks are copied into a slice of its exact size: grown by append, a run kept
	// up to twice its bytes, which a cache bounded by Bytes did not see.
	sizes := []int{0}
	for _, s := range r.spans {
		if s.isHole {
			sizes = append(sizes, 0)
		} else {
			sizes[len(sizes)-1] += s.end - s.start
		}
	}
	t := &Template{runs: make([]run, 1, len(sizes))}
	t.runs[0].deflated = make([]byte, 0, sizes[0])
	for _, s := range r.spans {
		if s.isHole {
			t.holes = append(t.holes, s.hole)
			t.runs = append(t.runs, run{deflated: make([]byte, 0, sizes[len(t.runs)])})
			continue
		}
		cur := &t.runs[len(t.runs)-1]
		cur.deflated = append(cur.deflated, out[s.start:s.end]...)
		cur.crc = Combine(cur.crc, s.crc, s.size)
		cur.size += s.size
	}
	for i := range t.runs {
		t.runs[i].shift = xPow8n(t.runs[i].size)
	}
	if len(t.holes) > 0 {
		t.holeShift = xPow8n(int64(len(t.holes[0])))
	}
	r.t = t
}
