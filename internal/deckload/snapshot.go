package deckload

import (
	"io/fs"
	"testing/fstest"
)

// snapshot is a deck's files as one load read them: the card files of base, with the app's
// stored cards laid over them. The deck, the editor and `deck pull` read this text, never the
// disk again, so what they show is what the load validated.
type snapshot struct {
	tree  fstest.MapFS // every path, for directory listings; file contents come from files
	files map[string][]byte
}

// newSnapshot records base's files (paths and their text) with files laid over them.
func newSnapshot(paths []string, data [][]byte, files map[string][]byte) *snapshot {
	s := &snapshot{tree: fstest.MapFS{}, files: make(map[string][]byte, len(paths)+len(files))}
	for i, p := range paths {
		s.files[p] = data[i]
	}
	for p, b := range files {
		if b == nil {
			delete(s.files, p)
			continue
		}
		s.files[p] = b
	}
	for p := range s.files {
		s.tree[p] = &fstest.MapFile{Mode: 0o444}
	}
	return s
}

// ReadFile returns the text of the file as loaded. The bytes may be shared: never write to them.
func (s *snapshot) ReadFile(name string) ([]byte, error) {
	b, ok := s.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return b, nil
}

// Open opens a file (its text as loaded) or a directory of the snapshot.
func (s *snapshot) Open(name string) (fs.File, error) {
	b, ok := s.files[name]
	if !ok {
		return s.tree.Open(name) // a directory, or not found
	}
	return fstest.MapFS{name: &fstest.MapFile{Data: b, Mode: 0o444}}.Open(name)
}
