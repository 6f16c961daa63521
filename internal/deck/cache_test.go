package deck

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// copyFS turns the valid test deck into a MapFS the test can edit.
func copyFS(t *testing.T) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	root := "testdata/valid"
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		fsys[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A second card, so a test can edit one and see the other come from the cache.
	src := string(fsys["kafka/eager.md"].Data)
	fsys["kafka/second.md"] = &fstest.MapFile{Data: []byte(strings.Replace(src, "id: connect-eager-rebalancing", "id: second-card", 1))}
	return fsys
}

func loadWithCache(t *testing.T, fsys fstest.MapFS, path string) (*Deck, *Cache) {
	t.Helper()
	c, err := ReadCache(path)
	if err != nil {
		t.Logf("cache ignored: %v", err)
	}
	d, err := Load(fsys, Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Write(path); err != nil {
		t.Fatal(err)
	}
	return d, c
}

func TestCacheGivesTheSameDeck(t *testing.T) {
	fsys := copyFS(t)
	path := filepath.Join(t.TempDir(), "deck-cache.bin")
	plain, err := Load(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	first, c := loadWithCache(t, fsys, path)
	if c.Hits() != 0 {
		t.Fatalf("first load: %d hits from an empty cache", c.Hits())
	}
	second, c := loadWithCache(t, fsys, path)
	if c.Hits() != plain.Len() {
		t.Fatalf("second load: %d hits, want %d", c.Hits(), plain.Len())
	}
	for _, d := range []*Deck{first, second} {
		if !reflect.DeepEqual(d.Cards, plain.Cards) {
			t.Fatalf("deck from the cache differs from a fresh parse")
		}
	}
	if !reflect.DeepEqual(second.indexes, plain.indexes) || !reflect.DeepEqual(second.Topics(), plain.Topics()) {
		t.Fatal("index or topics differ")
	}
}

func TestCacheReparsesAnEditedFile(t *testing.T) {
	fsys := copyFS(t)
	path := filepath.Join(t.TempDir(), "deck-cache.bin")
	d, _ := loadWithCache(t, fsys, path)
	f := d.Cards[0].File
	src := string(fsys[f].Data)
	fsys[f] = &fstest.MapFile{Data: []byte(strings.Replace(src, "## Basics\n", "## Basics\n\nEdited here.\n", 1))}
	d, c := loadWithCache(t, fsys, path)
	if c.Hits() != d.Len()-1 {
		t.Errorf("%d hits, want %d (every card but the edited one)", c.Hits(), d.Len()-1)
	}
	if !strings.Contains(d.Cards[0].Basics.Text, "Edited here.") {
		t.Errorf("edited card kept its old text: %q", d.Cards[0].Basics.Text)
	}
	// A duplicate id is still caught when every card comes from the cache.
	dup := fstest.MapFS{}
	for k, v := range fsys {
		dup[k] = v
	}
	dup["zz/copy.md"] = fsys[f]
	if _, err := Load(dup, Options{Cache: mustRead(t, path)}); err == nil || !strings.Contains(err.Error(), "duplicate id") {
		t.Errorf("duplicate id not reported with a cache: %v", err)
	}
}

func mustRead(t *testing.T, path string) *Cache {
	c, err := ReadCache(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCorruptCacheIsIgnored(t *testing.T) {
	fsys := copyFS(t)
	path := filepath.Join(t.TempDir(), "deck-cache.bin")
	loadWithCache(t, fsys, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b[:len(b)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCache(path)
	if err == nil {
		t.Error("a truncated cache was read without complaint")
	}
	d, err := Load(fsys, Options{Cache: c})
	if err != nil || c.Hits() != 0 {
		t.Fatalf("load over a corrupt cache: err %v, hits %d", err, c.Hits())
	}
	if err := c.Write(path); err != nil {
		t.Fatal(err)
	}
	if c := mustRead(t, path); c.lookupCount() != d.Len() {
		t.Errorf("rebuilt cache holds %d cards, want %d", c.lookupCount(), d.Len())
	}
}

func (c *Cache) lookupCount() int { return len(c.old) }

func TestDamagedCacheIsIgnored(t *testing.T) {
	fsys := copyFS(t)
	path := filepath.Join(t.TempDir(), "deck-cache.bin")
	loadWithCache(t, fsys, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Flip one byte anywhere: every position must be caught, never decoded into a card.
	for i := 0; i < len(b); i += max(1, len(b)/200) {
		bad := append([]byte(nil), b...)
		bad[i] ^= 0x5a
		if err := os.WriteFile(path, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if c, err := ReadCache(path); err == nil || c.lookupCount() != 0 {
			t.Fatalf("byte %d flipped: err %v, %d cards", i, err, c.lookupCount())
		}
	}
}

func TestCachedCardsSkipOnlyTheirOwnSimCheck(t *testing.T) {
	fsys := copyFS(t)
	path := filepath.Join(t.TempDir(), "deck-cache.bin")
	calls := 0
	check := Options{CheckSim: func(*Simulation) error { calls++; return nil }}
	load := func(opt Options) {
		t.Helper()
		opt.Cache = mustRead(t, path)
		if _, err := Load(fsys, opt); err != nil {
			t.Fatal(err)
		}
		if err := opt.Cache.Write(path); err != nil {
			t.Fatal(err)
		}
	}
	load(Options{}) // cached without any check
	load(check)
	if calls != 2 {
		t.Fatalf("cards cached unchecked: %d checks, want 2", calls)
	}
	calls = 0
	load(check)
	if calls != 0 {
		t.Errorf("cards cached after passing the check were checked again %d times", calls)
	}
	src := string(fsys["kafka/second.md"].Data)
	fsys["kafka/second.md"] = &fstest.MapFile{Data: []byte(src + "\n")}
	load(check)
	if calls != 1 {
		t.Errorf("edited card: %d checks, want 1", calls)
	}
}
