package deckload

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
)

// The bundled deck passes every check a served deck gets, simulations included.
func TestLoadBundledDeck(t *testing.T) {
	d, err := Load(content.FS, true)
	if err != nil || d.Len() < 10 {
		t.Fatalf("bundled deck: %v", err)
	}
}

func TestOverlayReplacesAndAdds(t *testing.T) {
	src, err := os.ReadFile("../deck/testdata/valid/kafka/eager.md")
	if err != nil {
		t.Fatal(err)
	}
	base := fstest.MapFS{"kafka/eager.md": {Data: src}}
	edited := strings.Replace(string(src), "## Answer\n", "## Answer\n\n- Edited in the app\n", 1)
	added := strings.Replace(string(src), "id: ", "id: added-", 1)
	fsys, err := Overlay(base, map[string][]byte{"kafka/eager.md": []byte(edited), "kafka/added.md": []byte(added)})
	if err != nil {
		t.Fatal(err)
	}
	d, err := deck.Load(fsys, deck.Options{})
	if err != nil || d.Len() != 2 {
		t.Fatalf("overlaid deck: %v", err)
	}
	if !strings.Contains(d.Cards[1].Answer[0].Text(), "Edited in the app") {
		t.Errorf("override not applied: %q", d.Cards[1].Answer[0].Text())
	}
	// The base is untouched.
	if b, _ := base.ReadFile("kafka/eager.md"); string(b) != string(src) {
		t.Error("overlay wrote through to its base")
	}
}

func TestHolderKeepsTheRunningDeckOnAFailedReload(t *testing.T) {
	src, _ := os.ReadFile("../deck/testdata/valid/kafka/eager.md")
	files := fstest.MapFS{"kafka/eager.md": {Data: src}}
	load := func() (*Loaded, error) {
		d, err := deck.Load(files, deck.Options{})
		return &Loaded{Deck: d}, err
	}
	l, err := load()
	if err != nil {
		t.Fatal(err)
	}
	d := l.Deck
	h := NewHolder(l, "dir", load)
	files["kafka/broken.md"] = &fstest.MapFile{Data: []byte("---\nid: broken\n---\n")}
	var list deck.ErrorList
	if err := h.Reload(); !errors.As(err, &list) || h.Deck() != d || len(h.Status().Errors) == 0 {
		t.Fatalf("broken reload: %v, status %+v", err, h.Status())
	}
	delete(files, "kafka/broken.md")
	if err := h.Reload(); err != nil || h.Deck() == d || !h.Status().FailedAt.IsZero() {
		t.Fatalf("good reload: %v", err)
	}
	if ok, failed := h.ReloadCounts(); ok != 1 || failed != 1 {
		t.Errorf("reload counts ok %d failed %d", ok, failed)
	}
	if err := NewHolder(l, "embedded", nil).Reload(); !errors.Is(err, ErrNotReloadable) {
		t.Errorf("no loader: %v", err)
	}
}

// A stored card that clashes with the card files is skipped with its reason; the rest loads.
func TestLayeredSkipsStoredCardsThatNoLongerLoad(t *testing.T) {
	src, _ := os.ReadFile("../deck/testdata/valid/kafka/eager.md")
	base := fstest.MapFS{"kafka/eager.md": {Data: src}}
	other := strings.Replace(string(src), "id: ", "id: other-", 1)
	stored := map[string][]byte{"kafka/a-copy.md": src, "kafka/other.md": []byte(other)} // a-copy repeats eager's id
	load := Layered(base, func() (map[string][]byte, error) { return stored, nil }, func(f fs.FS) (*deck.Deck, error) { return deck.Load(f, deck.Options{}) })
	l, err := load()
	if err != nil {
		t.Fatal(err)
	}
	if l.Deck.Len() != 2 || len(l.Skipped) != 1 || l.Skipped[0].File != "kafka/a-copy.md" || !l.Stored["kafka/other.md"] {
		t.Fatalf("cards %d, skipped %v, stored %v", l.Deck.Len(), l.Skipped, l.Stored)
	}
}

// Cards render on first view, after a reload too: a card of the replaced deck that was never
// shown still renders the text it was loaded from, and the new deck's card the new text.
func TestReloadRendersEachDeckFromItsOwnFiles(t *testing.T) {
	src, err := os.ReadFile("../deck/testdata/valid/kafka/eager.md")
	if err != nil {
		t.Fatal(err)
	}
	base := fstest.MapFS{"kafka/eager.md": {Data: src}}
	load := Layered(base, func() (map[string][]byte, error) { return nil, nil }, func(f fs.FS) (*deck.Deck, error) { return Load(f, false) })
	l, err := load()
	if err != nil {
		t.Fatal(err)
	}
	h := NewHolder(l, "dir", load)
	old := h.Deck().Cards[0]
	edited := strings.Replace(string(src), "## Answer\n", "## Answer\n\n- Edited on disk\n", 1)
	base["kafka/eager.md"] = &fstest.MapFile{Data: []byte(edited)}
	if err := h.Reload(); err != nil {
		t.Fatal(err)
	}
	cur := h.Deck().Cards[0]
	if got := string(cur.Answer[0].HTML()); !strings.Contains(got, "Edited on disk") {
		t.Errorf("reloaded card renders %q", got)
	}
	// The replaced deck keeps its own text: a page still holding it shows what it validated.
	if got := string(old.Answer[0].HTML()); strings.Contains(got, "Edited on disk") || old.Render() != nil {
		t.Errorf("replaced deck's card renders %q", got)
	}

}
