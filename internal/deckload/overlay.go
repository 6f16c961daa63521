package deckload

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rehearse/rehearse/internal/deck"
)

// Overlay lays files over base: each entry of files (slash paths relative to the deck root)
// replaces or adds that file, or removes it when its text is nil. The result is a snapshot
// (snapshot.go) read once per load: a deck is a few hundred small files, and reading them all
// first means a load never sees a half-changed tree.
func Overlay(base fs.FS, files map[string][]byte) (fs.FS, error) {
	var paths []string
	err := fs.WalkDir(base, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	// Read on every core: a start reads the whole deck before parsing it.
	data := make([][]byte, len(paths))
	errs := make([]error, len(paths))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(paths); i = int(next.Add(1) - 1) {
				data[i], errs[i] = fs.ReadFile(base, paths[i])
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return newSnapshot(paths, data, files), nil
}

// Layered returns a loader of base with the stored cards (path → text, read by stored on
// every load) laid over it, parsed by load. A stored card that makes the deck fail is left
// out and reported in Loaded.Skipped rather than keeping the server from starting; problems
// in the card files themselves still fail the load.
func Layered(base fs.FS, stored func() (map[string][]byte, error), load func(fs.FS) (*deck.Deck, error)) func() (*Loaded, error) {
	return func() (*Loaded, error) {
		files, err := stored()
		if err != nil {
			return nil, fmt.Errorf("reading the cards stored in the app: %w", err)
		}
		var skipped deck.ErrorList
		// Each round drops the stored files named in errors; a chain of stored cards linking
		// to one that went away loses one link per round, so it takes as many rounds as there
		// are stored files at most.
		for range len(files) + 1 {
			fsys, err := Overlay(base, files)
			if err != nil {
				return nil, err
			}
			d, err := load(fsys)
			var list deck.ErrorList
			if err == nil {
				l := &Loaded{Deck: d, Files: fsys, Base: base, Stored: map[string]bool{}, Skipped: skipped}
				for p := range files {
					l.Stored[p] = true
				}
				return l, nil
			}
			if !errors.As(err, &list) {
				return nil, err
			}
			dropped := false
			for _, e := range list {
				for p := range files {
					// A duplicate id is reported on the later file: the stored one, or the
					// card file whose message names it.
					if p == e.File || strings.HasSuffix(e.Msg, "also used by "+p) {
						delete(files, p)
						skipped, dropped = append(skipped, deck.Error{File: p, Line: e.Line, Msg: e.Msg}), true
					}
				}
			}
			if !dropped {
				return nil, err
			}
		}
		return nil, fmt.Errorf("stored cards keep failing to load:\n%w", skipped)
	}
}
