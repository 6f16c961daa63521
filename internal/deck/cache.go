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
)

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

// cacheFile is what the file holds, gob-encoded. gob carries every exported field of Card, so a
// new field needs no codec change; the unexported line numbers (idLine, spokenLine) travel beside it.
// TestCacheGivesTheSameDeck compares whole cards and catches any field the trip would drop.
type cacheFile struct {
	Version string
	Checked bool // the cards passed Options.CheckSim when saved
	Cards   []cacheEntry
}

type cacheEntry struct {
	Key         [32]byte
	Card        *Card
	IDLine      int
	SpokenLines [2]int
}

// ReadCache reads the cache file at path. It always returns a usable cache: when the file is
// missing the cache starts empty, and when it is unreadable, corrupt or from another build the
// cache starts empty and err says why (for a log line; the next Write replaces the file).
func ReadCache(path string) (*Cache, error) {
	c := &Cache{}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	// The last four bytes are a checksum of the rest: a damaged file must not yield wrong cards.
	if len(data) < 4 {
		return c, fmt.Errorf("deck cache %s is not a deck cache, ignored", path)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return c, fmt.Errorf("deck cache %s is damaged (checksum), ignored", path)
	}
	var f cacheFile
	if err := gob.NewDecoder(bytes.NewReader(body)).Decode(&f); err != nil {
		return c, fmt.Errorf("deck cache %s is unreadable, ignored: %w", path, err)
	}
	if f.Version != cacheVersion() {
		return c, fmt.Errorf("deck cache %s is from another build, ignored", path)
	}
	c.wasChecked = f.Checked
	c.old = make(map[[32]byte]*Card, len(f.Cards))
	for _, e := range f.Cards {
		if e.Card == nil {
			return &Cache{}, fmt.Errorf("deck cache %s is unreadable, ignored: empty entry", path)
		}
		e.Card.idLine, e.Card.spokenLine = e.IDLine, e.SpokenLines
		c.old[e.Key] = e.Card
	}
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
	f := cacheFile{Version: cacheVersion(), Checked: c.checked, Cards: make([]cacheEntry, 0, len(c.next))}
	for k, card := range c.next {
		f.Cards = append(f.Cards, cacheEntry{Key: k, Card: card, IDLine: card.idLine, SpokenLines: card.spokenLine})
	}
	var buf bytes.Buffer
	if err = gob.NewEncoder(&buf).Encode(&f); err == nil {
		_, err = tmp.Write(binary.LittleEndian.AppendUint32(buf.Bytes(), crc32.Checksum(buf.Bytes(), crcTable)))
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
	v := "deck-cache"
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
