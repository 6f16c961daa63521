package gzpage

import (
	"bytes"
	"hash/maphash"
	"sync"
)

// maxMemoSegment is the longest segment a Memo keeps; longer ones are compressed every time.
const maxMemoSegment = 32 << 10

// Memo keeps segments' compressed forms by their bytes, within a memory bound. A hit is the
// same bytes compressed the same way, so it cannot be stale: nothing needs invalidating. When
// full, entries picked at random make room.
type Memo struct {
	mu    sync.Mutex
	seed  maphash.Seed
	m     map[uint64]memoEntry
	bytes int
	max   int
}

type memoEntry struct {
	raw, deflated []byte
}

// NewMemo returns a memo holding at most maxBytes of markup and compressed blocks.
func NewMemo(maxBytes int) *Memo {
	return &Memo{seed: maphash.MakeSeed(), m: map[uint64]memoEntry{}, max: maxBytes}
}

// lookup returns seg's compressed blocks, or nil. A nil memo has nothing.
func (m *Memo) lookup(seg []byte) []byte {
	if m == nil || len(seg) > maxMemoSegment {
		return nil
	}
	h := maphash.Bytes(m.seed, seg)
	m.mu.Lock()
	e, ok := m.m[h]
	m.mu.Unlock()
	if ok && bytes.Equal(e.raw, seg) { // a hash collision is a miss
		return e.deflated
	}
	return nil
}

// store keeps copies of seg and its compressed blocks.
func (m *Memo) store(seg, deflated []byte) {
	n := len(seg) + len(deflated)
	if m == nil || len(seg) > maxMemoSegment || n > m.max {
		return
	}
	h := maphash.Bytes(m.seed, seg)
	e := memoEntry{raw: bytes.Clone(seg), deflated: bytes.Clone(deflated)}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.m[h]; ok {
		delete(m.m, h)
		m.bytes -= len(old.raw) + len(old.deflated)
	}
	for k, old := range m.m { // map order is unspecified: a cheap random eviction
		if m.bytes+n <= m.max {
			break
		}
		delete(m.m, k)
		m.bytes -= len(old.raw) + len(old.deflated)
	}
	m.m[h] = e
	m.bytes += n
}
