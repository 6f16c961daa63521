package main

import (
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
)

// deckCacheName is the parse cache's file in the data directory.
const deckCacheName = "deck-cache.bin"

// loadDeckCached loads a deck as loadDeck does, reusing the cards of unchanged files from the
// cache file at path and rewriting it after a successful load. A cache that cannot be read or
// written costs only time: the problem is logged and the deck is parsed in full.
func loadDeckCached(fsys fs.FS, path string, log *slog.Logger) (*deck.Deck, error) {
	start := time.Now()
	c, err := deck.ReadCache(path)
	if err != nil {
		log.Warn("deck cache ignored; it will be rebuilt", "err", err)
	}
	read := time.Since(start)
	d, err := loadDeckWith(fsys, c)
	if err != nil {
		return nil, err
	}
	loaded := time.Since(start)
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		log.Warn("deck cache not saved", "err", err)
	} else if err := c.Write(path); err != nil {
		log.Warn("deck cache not saved", "err", err)
	}
	log.Info("deck loaded", "cards", d.Len(), "from_cache", c.Hits(), "cache_read", read.Round(time.Millisecond),
		"load", loaded.Round(time.Millisecond), "total", time.Since(start).Round(time.Millisecond))
	return d, nil
}
