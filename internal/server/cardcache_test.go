package server

import (
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
)

func TestFigureCacheBelongsToOneDeck(t *testing.T) {
	var f figureCache
	d1, d2 := &deck.Deck{}, &deck.Deck{}
	f.put(d1, "a", []byte("<figure>1</figure>"))
	if b, ok := f.get(d1, "a"); !ok || string(b) != "<figure>1</figure>" {
		t.Fatalf("get after put: %q %v", b, ok)
	}
	if _, ok := f.get(d2, "a"); ok {
		t.Fatal("a reloaded deck was served the old deck's figure")
	}
	f.put(d2, "a", []byte("<figure>2</figure>"))
	if _, ok := f.get(d1, "a"); ok {
		t.Fatal("the old deck's figures survived a reload")
	}
}

func TestFigureCacheStaysWithinBudget(t *testing.T) {
	var f figureCache
	d := &deck.Deck{}
	big := []byte(strings.Repeat("x", figureCacheBytes/3+1))
	for _, id := range []string{"a", "b", "c", "d"} {
		f.put(d, id, big)
		if f.bytes > figureCacheBytes {
			t.Fatalf("after %s the cache holds %d bytes, over %d", id, f.bytes, figureCacheBytes)
		}
	}
	if _, ok := f.get(d, "d"); !ok {
		t.Fatal("the newest figure was dropped")
	}
}

// The card page served from the cache is the one rendered fresh.
func TestCardPageFigureCached(t *testing.T) {
	e := newBenchEnv(t)
	first, second := e.get("/cards/"+benchCard, false), e.get("/cards/"+benchCard, false)
	if !strings.Contains(first.Body.String(), `id="simulation"`) {
		t.Fatal("the card page has no simulation figure")
	}
	if first.Body.String() != second.Body.String() {
		t.Fatal("the cached page differs from the first render")
	}
}
