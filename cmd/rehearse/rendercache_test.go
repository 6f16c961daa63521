package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/content"
)

func TestLoadDeckCachedReusesAndRebuilds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", deckCacheName) // the data dir does not exist yet
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	first, err := loadDeckCached(content.FS, path, log)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "from_cache=0 ") {
		t.Fatalf("first load: %s", logs.String())
	}
	logs.Reset()
	second, err := loadDeckCached(content.FS, path, log)
	if err != nil {
		t.Fatal(err)
	}
	if want := "from_cache=" + strconv.Itoa(first.Len()) + " "; !strings.Contains(logs.String(), want) {
		t.Fatalf("second load, want %s: %s", want, logs.String())
	}
	for i, c := range second.Cards {
		if c.Explanation.HTML != first.Cards[i].Explanation.HTML || c.ID != first.Cards[i].ID {
			t.Fatalf("card %d differs after the cache", i)
		}
	}

	if err := os.WriteFile(path, []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	if _, err := loadDeckCached(content.FS, path, log); err != nil {
		t.Fatalf("a corrupt cache must not fail the load: %v", err)
	}
	if !strings.Contains(logs.String(), "deck cache ignored") || !strings.Contains(logs.String(), "from_cache=0 ") {
		t.Fatalf("corrupt cache not reported: %s", logs.String())
	}
	if b, err := os.ReadFile(path); err != nil || len(b) < 1000 {
		t.Fatalf("cache not rebuilt: %d bytes, %v", len(b), err)
	}
}
