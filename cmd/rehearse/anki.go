package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/anki"
	"github.com/rehearse/rehearse/internal/deck"
)

// isAnkiPackage reports whether an import input is an Anki package: named .apkg, or a zip
// whatever its name (a text importer must never read one).
func isAnkiPackage(name string, head []byte) bool {
	return strings.EqualFold(filepath.Ext(name), ".apkg") || anki.LooksLikeZip(head)
}

// apkgImport is an Anki package read and converted, its files not yet written.
type apkgImport struct {
	files   []apkgFile
	summary string
}

type apkgFile struct {
	path string
	data []byte
}

// readApkg reads the Anki package file and converts it into card files under outDir
// (anki/<deck>/<id>.md) and its images under outDir/_media. Everything is read and checked
// here, before the first file is written (writeApkg), so a refused package leaves nothing.
func readApkg(ctx context.Context, file, outDir string) (*apkgImport, error) {
	if outDir == "" {
		return nil, fmt.Errorf("%s: an Anki package makes many cards: give -o DIR", file)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	p, err := anki.Read(ctx, bytes.NewReader(src), int64(len(src)), "", anki.DefaultLimits)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	cards, media := anki.Convert(p)
	im := &apkgImport{}
	for _, c := range cards {
		if _, errs := deck.Parse(c.Path, c.Markdown); len(errs) > 0 {
			return nil, fmt.Errorf("%s: card %s would not be valid: %v", file, c.ID, errs[0])
		}
		im.files = append(im.files, apkgFile{filepath.Join(outDir, filepath.FromSlash(c.Path)), c.Markdown})
	}
	for _, m := range media {
		im.files = append(im.files, apkgFile{filepath.Join(outDir, "_media", strings.TrimPrefix(anki.MediaPath(m), "/media/")), m.Data})
	}
	for _, f := range im.files {
		if _, err := os.Stat(f.path); err == nil {
			return nil, fmt.Errorf("%s: %s exists already; nothing written", file, f.path)
		}
	}
	im.summary = fmt.Sprintf("%s -> %d cards from %d notes (%s, %d reviews, %d images) under %s",
		file, len(cards), len(p.Notes), p.Format, len(p.Revlog), len(media), outDir)
	return im, nil
}

func writeApkg(im *apkgImport, io stdio) error {
	for _, f := range im.files {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := writeNew(f.path, f.data); err != nil {
			return err
		}
	}
	fmt.Fprintln(io.out, im.summary)
	return nil
}

// cmdExport writes a deck as an Anki package.
func cmdExport(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	fl := flag.NewFlagSet("export", flag.ContinueOnError)
	fl.SetOutput(io.err)
	apkg := fl.Bool("apkg", false, "write an Anki package (the only format so far)")
	outFile := fl.String("o", "", "write the package to `FILE`")
	fl.Usage = func() {
		fmt.Fprintln(io.err, "usage: rehearse export --apkg -o FILE [DIR]   (DIR: a deck directory; default the bundled deck)")
		fl.PrintDefaults()
	}
	rest, err := parseInterspersed(fl, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return exitError{2}
	}
	if !*apkg || *outFile == "" || len(rest) > 1 {
		fl.Usage()
		return exitError{2}
	}
	var fsys fs.FS = content.FS
	if len(rest) == 1 {
		fsys = os.DirFS(rest[0])
	}
	d, err := deck.Load(fsys, deck.Options{})
	if err != nil {
		fmt.Fprintf(io.err, "export: %v\n", err)
		return exitError{1}
	}
	cards := make([]anki.ExportCard, 0, d.Len())
	for _, c := range d.Cards {
		front, back := anki.CardSides(c)
		cards = append(cards, anki.ExportCard{ID: c.ID, Topic: c.Topic, Tags: c.Tags, Front: front, Back: back})
	}
	f, err := os.OpenFile(*outFile, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		fmt.Fprintf(io.err, "export: %v\n", err)
		return exitError{1}
	}
	if err := anki.Write(ctx, f, cards, time.Now(), ""); err != nil {
		f.Close()
		os.Remove(*outFile)
		fmt.Fprintf(io.err, "export: %v\n", err)
		return exitError{1}
	}
	if err := f.Close(); err != nil {
		fmt.Fprintf(io.err, "export: %v\n", err)
		return exitError{1}
	}
	fmt.Fprintf(io.out, "%s: %d cards in %d topics\n", *outFile, len(cards), len(d.Topics()))
	return nil
}
