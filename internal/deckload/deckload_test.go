package deckload

import (
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
)

// The bundled deck passes every check a served deck gets, simulations included.
func TestLoadBundledDeck(t *testing.T) {
	d, err := Load(content.FS, nil)
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
	if !strings.Contains(d.Cards[1].Answer[0].Text, "Edited in the app") {
		t.Errorf("override not applied: %q", d.Cards[1].Answer[0].Text)
	}
	// The base is untouched.
	if b, _ := base.ReadFile("kafka/eager.md"); string(b) != string(src) {
		t.Error("overlay wrote through to its base")
	}
}

func TestHolderKeepsTheRunningDeckOnAFailedReload(t *testing.T) {
	src, _ := os.ReadFile("../deck/testdata/valid/kafka/eager.md")
	files := fstest.MapFS{"kafka/eager.md": {Data: src}}
	load := func() (*deck.Deck, error) { return deck.Load(files, deck.Options{}) }
	d, err := load()
	if err != nil {
		t.Fatal(err)
	}
	h := NewHolder(d, "dir", load)
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
	if err := NewHolder(d, "embedded", nil).Reload(); !errors.Is(err, ErrNotReloadable) {
		t.Errorf("no loader: %v", err)
	}
}
