package deckload

import (
	"errors"
	"hash/maphash"
	"io/fs"
	"testing/fstest"
)

// snapshot is a deck's files as one load read them: the card files of base, with the app's
// stored cards laid over them. A load reads every file once, while the text is in memory; after
// it (release) the card files' text is let go, since it was most of what a server kept, and a
// later read (a card's first render, the editor) reads the file again and checks it is the text
// the load validated: a file changed on disk since fails with ErrChanged rather than showing
// unchecked text. Stored cards keep their text: it is not on disk.
type snapshot struct {
	tree  fstest.MapFS // every path, for directory listings; file contents come from files
	base  fs.FS
	files map[string]*snapFile
}

type snapFile struct {
	data   []byte // nil for a card file once released
	stored bool   // from the app, not base: its text is kept
	size   int
	sum    uint64 // of the text the load read (card files)
}

// ErrChanged: a card file is not the text the running deck was loaded from.
var ErrChanged = errors.New("the file changed since the deck was loaded; reload the deck (SIGHUP or the admin page) to use it")

var snapSeed = maphash.MakeSeed()

// newSnapshot records base's files (paths and their text) with files laid over them.
func newSnapshot(base fs.FS, paths []string, data [][]byte, files map[string][]byte) *snapshot {
	s := &snapshot{tree: fstest.MapFS{}, base: base, files: make(map[string]*snapFile, len(paths)+len(files))}
	for i, p := range paths {
		s.files[p] = &snapFile{data: data[i], size: len(data[i]), sum: maphash.Bytes(snapSeed, data[i])}
	}
	for p, b := range files {
		if b == nil {
			delete(s.files, p)
			continue
		}
		s.files[p] = &snapFile{data: b, stored: true, size: len(b)}
	}
	for p := range s.files {
		s.tree[p] = &fstest.MapFile{Mode: 0o444}
	}
	return s
}

// release lets go of the card files' text; reads after it go to base. Call it once no load of
// this snapshot is running (Layered does, after its load).
func (s *snapshot) release() {
	for _, f := range s.files {
		if !f.stored {
			f.data = nil
		}
	}
}

// ReadFile returns the text of the file as loaded. The bytes may be shared: never write to them.
func (s *snapshot) ReadFile(name string) ([]byte, error) {
	f, ok := s.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	if f.data != nil {
		return f.data, nil
	}
	b, err := fs.ReadFile(s.base, name)
	if err != nil {
		return nil, err
	}
	if len(b) != f.size || maphash.Bytes(snapSeed, b) != f.sum {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrChanged}
	}
	return b, nil
}

// Open opens a file (its text as loaded) or a directory of the snapshot.
func (s *snapshot) Open(name string) (fs.File, error) {
	if _, ok := s.files[name]; !ok {
		return s.tree.Open(name) // a directory, or not found
	}
	b, err := s.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return fstest.MapFS{name: &fstest.MapFile{Data: b, Mode: 0o444}}.Open(name)
}
