package simform

import (
	"bytes"
	"crypto/rand"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
)

func TestFigureCacheBelongsToOneDeck(t *testing.T) {
	t.Parallel()
	var f FigureCache
	d1, d2 := &deck.Deck{}, &deck.Deck{}
	f.Put(d1, "a", []byte("<figure>1</figure>"))
	if b, ok := f.Get(d1, "a"); !ok || string(b) != "<figure>1</figure>" {
		t.Fatalf("get after put: %q %v", b, ok)
	}
	if _, ok := f.Get(d2, "a"); ok {
		t.Fatal("a reloaded deck was served the old deck's figure")
	}
	f.Put(d2, "a", []byte("<figure>2</figure>"))
	if _, ok := f.Get(d1, "a"); ok {
		t.Fatal("the old deck's figures survived a reload")
	}
}

func TestFigureCacheStaysWithinBudget(t *testing.T) {
	t.Parallel()
	var f FigureCache
	d := &deck.Deck{}
	big := make([]byte, FigureCacheBytes/3+1)
	rand.Read(big) // kept compressed: only bytes that do not compress fill it
	for _, id := range []string{"a", "b", "c", "d"} {
		f.Put(d, id, big)
		if f.bytes > FigureCacheBytes {
			t.Fatalf("after %s the cache holds %d bytes, over %d", id, f.bytes, FigureCacheBytes)
		}
	}
	if _, ok := f.Get(d, "d"); !ok {
		t.Fatal("the newest figure was dropped")
	}
}

// The budget counts what the cache holds: an entry keeps its compressed bytes only, not the
// encoder's buffer sized for the whole figure.
func TestFigureCacheHoldsWhatItCounts(t *testing.T) {
	t.Parallel()
	var f FigureCache
	d := &deck.Deck{}
	figure := bytes.Repeat([]byte(`<rect x="1" y="2" width="3" height="4"/>`), 5000)
	f.Put(d, "a", figure)
	if e := f.m["a"]; cap(e) > len(figure)/4 || f.bytes != len("a")+len(e) {
		t.Fatalf("a %d-byte figure is held in %d bytes of a %d-byte buffer, counted as %d", len(figure), len(e), cap(e), f.bytes)
	}
}
