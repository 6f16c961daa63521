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
func cmdCheck(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	fl := flag.NewFlagSet("check", flag.ContinueOnError)
	fl.SetOutput(io.err)
	fl.Usage = func() {
		fmt.Fprintln(io.err, "usage: rehearse check [DIR]   (DIR defaults to content)")
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
	fmt.Fprintf(io.out, "ok: %d cards in %d topics\n", d.Len(), len(d.Topics()))
	return nil
}

// loadDeck loads and validates a deck with every check a served deck gets, and also runs each
// card's simulation.expect (check_expect.go), and renders every card's HTML. Serving does not
// run expectations, so a changed engine cannot keep the app from starting; `rehearse check` and
// the tests catch it. Serving renders each card on first view: a card that fails to render
// (a renderer bug; the markdown itself was validated) shows a notice where the block would be.
func loadDeck(fsys fs.FS) (*deck.Deck, error) { return loadDeckExpect(fsys) }
