package hear

import (
	"encoding/binary"
	"math"
	"math/bits"
	"time"
)

// The browser's MediaRecorder writes WebM as it records, so the file never says how long it is:
// players show 0:00 and cannot seek. WithDuration writes the length (known when the recording
// stops) into the file's Info element, as a muxer that knew it would have.

// EBML element ids used here.
const (
	idEBML     = 0x1A45DFA3
	idSegment  = 0x18538067
	idSeekHead = 0x114D9B74
	idInfo     = 0x1549A966
	idDuration = 0x4489
	idScale    = 0x2AD7B1
	idSeek     = 0x4DBB
	idSeekPos  = 0x53AC
)

// WithDuration returns webm with a Duration of d in its Info element; positions in a SeekHead
// before it move with what follows. A file that already has one, or cannot be read, is
// returned as it was.
func WithDuration(webm []byte, d time.Duration) []byte {
	id, _, hdr, size, ok := element(webm, 0)
	if !ok || id != idEBML {
		return webm
	}
	seg := hdr + int(size)
	id, segSizeAt, segHdr, segSize, ok := element(webm, seg)
	if !ok || id != idSegment {
		return webm
	}
	segUnknown := segSize == unknownSize(segHdr-segSizeAt)
	seekAt, seekEnd := -1, -1
	for at := segHdr; at < len(webm); {
		id, sizeAt, dataAt, size, ok := element(webm, at)
		if !ok || size == unknownSize(dataAt-sizeAt) {
			return webm
		}
		switch id {
		case idSeekHead:
			seekAt, seekEnd = dataAt, dataAt+int(size)
		case idInfo:
			end := dataAt + int(size)
			if end > len(webm) {
				return webm
			}
			scale := uint64(1000000)
			for c := dataAt; c < end; {
				cid, _, cdata, csize, ok := element(webm, c)
				if !ok {
					return webm
				}
				switch cid {
				case idDuration:
					return webm
				case idScale:
					scale = readUint(webm[cdata : cdata+int(csize)])
				}
				c = cdata + int(csize)
			}
			if scale == 0 {
				return webm
			}
			dur := make([]byte, 11)
			dur[0], dur[1], dur[2] = 0x44, 0x89, 0x88
			binary.BigEndian.PutUint64(dur[3:], math.Float64bits(float64(d.Nanoseconds())/float64(scale)))
			out := make([]byte, 0, len(webm)+24)
			out = append(out, webm[:sizeAt]...)
			out = append(out, vint(size+uint64(len(dur)))...)
			out = append(out, webm[dataAt:end]...)
			out = append(out, dur...)
			out = append(out, webm[end:]...)
			if !segUnknown { // a Segment of known size grows by what was added
				grown := len(out) - len(webm)
				sizeLen := segHdr - segSizeAt
				fixed := vintWidth(segSize+uint64(grown), sizeLen)
				if fixed == nil {
					return webm
				}
				copy(out[segSizeAt:segHdr], fixed)
			}
			if seekAt >= 0 && !shiftSeeks(out, seekAt, seekEnd, at-segHdr, len(out)-len(webm)) {
				return webm
			}
			return out
		}
		at = dataAt + int(size)
	}
	return webm
}

// shiftSeeks moves the SeekHead positions (in b[from:to], relative to the Segment's data) of
// elements after the Info element at info by grown bytes, in place; false when one no longer
// fits its field.
func shiftSeeks(b []byte, from, to, info, grown int) bool {
	for at := from; at < to; {
		id, _, dataAt, size, ok := element(b, at)
		if !ok || dataAt+int(size) > to {
			return false
		}
		if id == idSeek {
			for c := dataAt; c < dataAt+int(size); {
				cid, _, cdata, csize, ok := element(b, c)
				if !ok {
					return false
				}
				if cid == idSeekPos {
					field := b[cdata : cdata+int(csize)]
					if v := readUint(field); v > uint64(info) {
						v += uint64(grown)
						if csize < 8 && v >= 1<<(8*csize) {
							return false
						}
						for i := len(field) - 1; i >= 0; i-- {
							field[i] = byte(v)
							v >>= 8
						}
					}
				}
				c = cdata + int(csize)
			}
		}
		at = dataAt + int(size)
	}
	return true
}

// element reads the element at off: its id, where its size starts, where its data starts and
// the data's size.
func element(b []byte, off int) (id uint64, sizeAt, dataAt int, size uint64, ok bool) {
	id, n, ok := readVint(b, off, true)
	if !ok {
		return
	}
	sizeAt = off + n
	size, m, ok := readVint(b, sizeAt, false)
	return id, sizeAt, sizeAt + m, size, ok
}

// readVint reads an EBML variable-length integer; an id keeps its length marker.
func readVint(b []byte, off int, keepMarker bool) (uint64, int, bool) {
	if off >= len(b) || b[off] == 0 {
		return 0, 0, false
	}
	n := bits.LeadingZeros8(b[off]) + 1
	if off+n > len(b) {
		return 0, 0, false
	}
	v := uint64(b[off])
	if !keepMarker {
		v &= 0xFF >> n
	}
	for _, c := range b[off+1 : off+n] {
		v = v<<8 | uint64(c)
	}
	return v, n, true
}

// unknownSize is the all-ones size of an n-byte size field, which means "unknown".
func unknownSize(n int) uint64 { return 1<<(7*uint(n)) - 1 }

func readUint(b []byte) uint64 {
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}

// vint encodes v in the fewest bytes.
func vint(v uint64) []byte {
	for n := 1; n <= 8; n++ {
		if v < unknownSize(n) {
			return vintWidth(v, n)
		}
	}
	return nil
}

// vintWidth encodes v in exactly n bytes, nil when it does not fit.
func vintWidth(v uint64, n int) []byte {
	if n < 1 || n > 8 || v >= unknownSize(n) {
		return nil
	}
	out := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		out[i] = byte(v)
		v >>= 8
	}
	out[0] |= 0x80 >> (n - 1)
	return out
}
