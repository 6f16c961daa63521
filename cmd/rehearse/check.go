package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rehearse/rehearse/internal/deck"
)

// cmdCheck validates a deck and prints every problem, one per line, as DIR/file:line: message.
// A spoken answer over its clock is a warning (printed, exit 0) unless --strict makes it an
// error: the bundled deck is held to its clocks, imported and member-written cards are not.
func cmdCheck(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(io.err)
	strict := fl.Bool("strict", false, "treat spoken answers over their clock as errors (the bundled deck's tests and CI)")
	fl.Usage = func() {
		fmt.Fprintln(io.err, "usage: rehearse check [--strict] [DIR]   (DIR defaults to content)")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return exitError{2}
	}
	if fl.NArg() > 1 {
		fl.Usage()
		return exitError{2}
	}
	dir := "content"
	if fl.NArg() == 1 {
		dir = fl.Arg(0)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(io.err, "check: %s is not a readable directory\n", dir)
		return exitError{1}
	}

	d, err := loadDeck(os.DirFS(dir))
	if err != nil {
		var list deck.ErrorList
		if !errors.As(err, &list) {
			fmt.Fprintf(io.err, "check: %v\n", err)
			return exitError{1}
		}
		for _, e := range list {
			e.File = filepath.Join(dir, filepath.FromSlash(e.File))
			fmt.Fprintln(io.err, e.Error())
		}
		return exitError{1}
	}
	for _, e := range d.Warnings {
		e.File = filepath.Join(dir, filepath.FromSlash(e.File))
		if *strict {
			fmt.Fprintln(io.err, e.Error())
		} else {
			fmt.Fprintln(io.err, "warning: "+e.Error())
		}
	}
	if *strict && len(d.Warnings) > 0 {
		return exitError{1}
	}
	fmt.Fprintf(io.out, "ok: %d cards in %d topics", d.Len(), len(d.Topics()))
	if n := len(d.Warnings); n > 0 {
		fmt.Fprintf(io.out, ", %d warnings", n)
	}
	fmt.Fprintln(io.out)
	return nil
}

// loadDeck loads and validates a deck with every check a served deck gets, and also runs each
// card's simulation.expect (check_expect.go), and renders every card's HTML. Serving does not
// run expectations, so a changed engine cannot keep the app from starting; `rehearse check` and
// the tests catch it. Serving renders each card on first view: a card that fails to render
// (a renderer bug; the markdown itself was validated) shows a notice where the block would be.
func loadDeck(fsys fs.FS) (*deck.Deck, error) { return loadDeckExpect(fsys) }
