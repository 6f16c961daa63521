package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/hear"
)

// cmdHear checks a recorded answer offline (package hear) and prints which key points were heard.
func cmdHear(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	fl := flag.NewFlagSet("hear", flag.ContinueOnError)
	fl.SetOutput(io.err)
	cardID := fl.String("card", "", "id of the card the recording answers (required)")
	depth := fl.String("depth", "basics", "depth whose key points are checked: basics, solid or deeper")
	asJSON := fl.Bool("json", false, "print JSON: key_points, transcript, seconds, took_seconds")
	dir := fl.String("content", getenv("REHEARSE_CONTENT"), "deck directory (default: the embedded deck)")
	fl.Usage = func() {
		fmt.Fprintln(io.err, "usage: rehearse hear --card ID [--depth basics|solid|deeper] [--json] FILE\n\nFILE is a recording (WAV, WebM, Ogg or MP4).")
		fl.PrintDefaults()
	}
	var rest []string
	for a := args; ; {
		if err := fl.Parse(a); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			return exitError{2}
		}
		if fl.NArg() == 0 {
			break
		}
		rest = append(rest, fl.Arg(0))
		a = fl.Args()[1:]
	}
	fail := func(code int, err error) error {
		fmt.Fprintln(io.err, "rehearse hear:", err)
		return exitError{code}
	}
	if len(rest) != 1 || *cardID == "" {
		fl.Usage()
		return exitError{2}
	}
	if *depth != "basics" && *depth != "solid" && *depth != "deeper" {
		return fail(2, fmt.Errorf("--depth: must be basics, solid or deeper, not %q", *depth))
	}
	base := fs.FS(content.FS)
	if *dir != "" {
		base = os.DirFS(*dir)
	}
	d, err := deckload.Load(base, false)
	if err != nil {
		return fail(1, err)
	}
	c, ok := d.Card(*cardID)
	if !ok {
		return fail(2, fmt.Errorf("--card: there is no card %q", *cardID))
	}
	audio, err := os.ReadFile(rest[0])
	if err != nil {
		return fail(1, err)
	}
	r, err := hear.Find()
	if err != nil {
		return fail(1, err)
	}
	res, err := r.Hear(ctx, d, c, *depth, audio)
	if err != nil {
		return fail(1, err)
	}
	if *asJSON {
		enc := json.NewEncoder(io.out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(io.out, "heard %d of %d key points in %.1f s of audio (%.1f s to check)\n", res.Heard(), len(res.KeyPoints), res.Seconds, res.Took)
	for _, k := range res.KeyPoints {
		mark := "  missed"
		if k.Heard {
			mark = "  heard "
		}
		fmt.Fprintf(io.out, "%s  %s\n", mark, k.Text)
	}
	fmt.Fprintf(io.out, "transcript: %s\n", res.Transcript)
	return nil
}
