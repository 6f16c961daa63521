package deckload

import (
	"io/fs"
	"testing/fstest"
)

// Overlay lays files over base: each entry of files (slash paths relative to the deck root)
// replaces or adds that file. The result is an in-memory copy, taken once per load: a deck is
// a few hundred small files, and a copy means a reload never sees a half-changed tree.
// (fstest.MapFS is the standard library's in-memory fs.FS; nothing in it is test-only.)
func Overlay(base fs.FS, files map[string][]byte) (fs.FS, error) {
	m := fstest.MapFS{}
	err := fs.WalkDir(base, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(base, p)
		if err != nil {
			return err
		}
		m[p] = &fstest.MapFile{Data: b, Mode: 0o444}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for p, b := range files {
		m[p] = &fstest.MapFile{Data: b, Mode: 0o444}
	}
	return m, nil
}
