package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/importer"
)

// cmdImport converts plain-text cards to markdown cards. Problems in an input (missing sections,
// lines it cannot place) are reported but still produce a card with TODOs; an unreadable input
// or an unwritable output makes the exit status 1, and a binary input (a PDF; an Anki .apkg is
// read as a package, anki.go) or a refused package refuses the whole run, in one line per such
// file, before anything is written.
func cmdImport(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	fl := flag.NewFlagSet("import", flag.ContinueOnError)
	fl.SetOutput(io.err)
	outDir := fl.String("o", "", "write each card to `DIR`/<id>.md (never overwriting) instead of stdout")
	topicsFile := fl.String("topics", "", "topic rules `FILE` (default: the bundled deck's import-topics.txt)")
	fl.Usage = func() {
		fmt.Fprintln(io.err, "usage: rehearse import [-o DIR] [-topics FILE] FILE...   (flags may also follow the files; an Anki .apkg needs -o)")
		fl.PrintDefaults()
	}
	files, err := parseInterspersed(fl, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return exitError{2}
	}
	if len(files) == 0 {
		fl.Usage()
		return exitError{2}
	}
	topics, err := importTopics(*topicsFile)
	if err != nil {
		fmt.Fprintf(io.err, "import: %v\n", err)
		return exitError{1}
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			fmt.Fprintf(io.err, "import: %v\n", err)
			return exitError{1}
		}
	}

	failed := false
	srcs := make([][]byte, len(files))          // nil: unreadable
	binary := false                             // an input refused: nothing is written
	packages := make([]*apkgImport, len(files)) // Anki packages, read and converted
	for i, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintf(io.err, "import: %v\n", err)
			failed = true
			continue
		}
		srcs[i] = src
		if isAnkiPackage(file, src) { // anki.go: read as a package, never as text
			im, err := readApkg(ctx, file, *outDir)
			if err != nil {
				fmt.Fprintf(io.err, "import: %v\n", err)
				binary = true
			}
			packages[i] = im
			continue
		}
		if err := importer.CheckText(file, src); err != nil {
			fmt.Fprintf(io.err, "import: %v\n", err)
			binary = true
		}
	}
	if binary { // refuse the whole run before writing anything
		return exitError{1}
	}
	used := map[string]bool{} // ids written in this run, so two inputs never share a file
	for i, file := range files {
		src := srcs[i]
		if src == nil {
			continue
		}
		if packages[i] != nil {
			if err := writeApkg(packages[i], io); err != nil {
				fmt.Fprintf(io.err, "import: %v\n", err)
				failed = true
			}
			continue
		}
		md, id, problems := importer.Import(file, src, topics)
		for _, p := range problems {
			fmt.Fprintln(io.err, p.Error())
		}
		name := id
		for n := 2; used[name]; n++ {
			name = fmt.Sprintf("%s-%d", id, n)
		}
		used[name] = true
		if name != id {
			// The id in the front matter must match, or check would report a duplicate.
			md = renameID(md, name)
		}
		if *outDir == "" {
			if len(files) > 1 {
				if len(used) > 1 {
					fmt.Fprintln(io.out)
				}
				fmt.Fprintf(io.out, "==> %s.md (from %s) <==\n", name, file)
			}
			_, _ = io.out.Write(md)
			continue
		}
		path := filepath.Join(*outDir, name+".md")
		if err := writeNew(path, md); err != nil {
			fmt.Fprintf(io.err, "import: %v\n", err)
			failed = true
			continue
		}
		fmt.Fprintf(io.out, "%s -> %s\n", file, path)
	}
	if failed {
		return exitError{1}
	}
	return nil
}

// importTopics reads the topic rules from path, or the bundled deck's when path is empty.
func importTopics(path string) (importer.Topics, error) {
	var b []byte
	var err error
	if path == "" {
		path = topicsFileName
		b, err = fs.ReadFile(content.FS, topicsFileName)
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	return importer.ParseTopics(path, string(b))
}

// topicsFileName is the topic rules' file at the root of a deck.
const topicsFileName = "import-topics.txt"

// renameID rewrites the id line of an imported card's front matter (always its second line).
func renameID(md []byte, id string) []byte {
	head, rest, _ := strings.Cut(string(md), "\nid: ")
	_, rest, _ = strings.Cut(rest, "\n")
	return []byte(head + "\nid: " + id + "\n" + rest)
}

// writeNew writes a file that must not exist yet, so an import never clobbers an edited card.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
