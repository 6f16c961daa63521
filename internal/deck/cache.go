package deck

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync"
	"unsafe"
)

// cacheFormat names the parser and renderer generation. Bump it with any change to parsing,
// rendering or the Card model: a cache written under another value is ignored whole.
const cacheFormat = "deck-cache-1"

// Cache remembers parsed cards between loads, keyed by each file's path and content, so a
// restart parses only the files that changed. It belongs to one Load at a time.
type Cache struct {
	old  map[[32]byte]*Card // read from the file
	next map[[32]byte]*Card // this load's cards, written by Write
	hits int
	same bool // next holds exactly the file's cards: nothing to write
	// checked: the cards passed Options.CheckSim when they were saved. Checking is deterministic
	// and the build is part of the version, so a cached card need not be checked again.
	checked, wasChecked bool
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

func init() {
	// Simulation overrides decoded from YAML hold these inside interface values.
	gob.Register([]any{})
	gob.Register(map[string]any{})
}

// ReadCache reads the cache file at path. It always returns a usable cache: when the file is
// missing the cache starts empty, and when it is unreadable, corrupt or from another build the
// cache starts empty and err says why (for a log line; the next Write replaces the file).
func ReadCache(path string) (*Cache, error) {
	c := &Cache{}
	data, err := readCacheFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	// The last four bytes are a checksum of the rest: a damaged file must not yield wrong cards.
	if len(data) < len(cacheMagic)+4 || !bytes.HasPrefix(data, []byte(cacheMagic)) {
		return c, fmt.Errorf("deck cache %s is not a deck cache, ignored", path)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return c, fmt.Errorf("deck cache %s is damaged (checksum), ignored", path)
	}
	// Every card's strings point into the file's bytes, which nothing writes to again: copying
	// 12 MB into a string first cost a warm start more than decoding (page faults on fresh memory).
	d := &cacheDecoder{s: unsafe.String(unsafe.SliceData(body), len(body))}
	d.off = len(cacheMagic)
	if v := d.str(); v != cacheVersion() {
		return c, fmt.Errorf("deck cache %s is from another build, ignored", path)
	}
	c.wasChecked = d.num() == 1
	n := d.count()
	cards := make(map[[32]byte]*Card, n)
	for range n {
		var k [32]byte
		copy(k[:], d.s[d.off:min(d.off+32, len(d.s))])
		d.off += 32
		if d.off > len(d.s) {
			d.err = errCorrupt
		}
		cards[k] = d.card()
		if d.err != nil {
			break
		}
	}
	if d.err == nil && d.off != len(d.s) {
		d.err = errCorrupt
	}
	if d.err != nil {
		return c, fmt.Errorf("deck cache %s is unreadable, ignored: %w", path, d.err)
	}
	c.old = cards
	return c, nil
}

// Hits is how many cards the last load took from the cache.
func (c *Cache) Hits() int { return c.hits }

// Write saves the cards of the last successful load to path (through a temporary file, so a
// crash never leaves half a cache). It does nothing when the file already holds exactly them.
func (c *Cache) Write(path string) error {
	if c.next == nil || c.same {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".deck-cache-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	var e cacheEncoder
	e.WriteString(cacheMagic)
	e.str(cacheVersion())
	checked := uint64(0)
	if c.checked {
		checked = 1
	}
	e.num(checked)
	e.num(uint64(len(c.next)))
	for k, card := range c.next {
		e.Write(k[:])
		if err = e.card(card); err != nil {
			break
		}
	}
	if err == nil {
		_, err = tmp.Write(binary.LittleEndian.AppendUint32(e.Bytes(), crc32.Checksum(e.Bytes(), crcTable)))
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write deck cache: %w", err)
	}
	return os.Rename(tmp.Name(), path)
}

func cacheKey(path string, src []byte) [32]byte {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(src)
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// lookup returns a copy of the cached card for the key: Load sets Order on its cards, and the
// cached one must not be shared with another deck.
func (c *Cache) lookup(k [32]byte) (*Card, bool) {
	cached, ok := c.old[k]
	if !ok {
		return nil, false
	}
	card := *cached
	return &card, true
}

// remember records the cards of a successful load for Write.
func (c *Cache) remember(keys [][32]byte, cards []*Card, hits int, checked bool) {
	c.hits, c.checked = hits, checked
	c.next = make(map[[32]byte]*Card, len(cards))
	for i, card := range cards {
		if card.Sim == nil || gobbable(card.Sim.Overrides) {
			c.next[keys[i]] = card
		}
	}
	c.same = hits == len(c.next) && len(c.old) == len(c.next) && checked == c.wasChecked
	c.old = nil
}

// gobbable reports whether v holds only values gob can carry in an interface (YAML's scalars,
// lists and mappings; no nil, which gob refuses). Overrides are the one field kept with gob.
func gobbable(v any) bool {
	switch x := v.(type) {
	case string, bool, int, int64, uint64, float64:
		return true
	case []any:
		for _, e := range x {
			if !gobbable(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !gobbable(e) {
				return false
			}
		}
		return true
	}
	return false
}

var cacheVersion = sync.OnceValue(func() string {
	v := cacheFormat
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v + " " + exeStamp()
	}
	v += " " + bi.GoVersion
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" || modified == "true" {
		// No commit names this code: tie the cache to this very binary instead.
		return v + " " + exeStamp()
	}
	return v + " " + rev
})

// exeStamp identifies the running binary by its size and modification time.
func exeStamp() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "unknown"
	}
	return strconv.FormatInt(st.Size(), 10) + "@" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
}
