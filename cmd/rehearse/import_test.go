package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
)

func runImport(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = cmdImport(context.Background(), args, func(string) string { return "" }, stdio{strings.NewReader(""), &out, &errb})
	return out.String(), errb.String(), err
}

func fixture(name string) string {
	return filepath.Join("..", "..", "internal", "importer", "testdata", "import", name)
}

func TestImportToStdout(t *testing.T) {
	out, stderr, err := runImport(t, fixture("complete.txt"))
	if err != nil || stderr != "" {
		t.Fatalf("err=%v stderr=%q", err, stderr)
	}
	if _, errs := deck.Parse("x.md", []byte(out)); errs != nil {
		t.Errorf("stdout is not one valid card: %v\n%s", errs, out)
	}
}

func TestImportToDirReportsProblemsAndUnreadableFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	missing := filepath.Join(t.TempDir(), "nope.txt")
	// The same input twice must not overwrite its own card: the second gets a suffixed id.
	out, stderr, err := runImport(t, "-o", dir, fixture("nopitfalls.txt"), missing, fixture("nopitfalls.txt"))
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v, want exit 1 for the unreadable input", err)
	}
	if !strings.Contains(stderr, fixture("nopitfalls.txt")+":15: no pitfalls; wrote a TODO placeholder") ||
		!strings.Contains(stderr, "nope.txt") {
		t.Errorf("stderr = %q", stderr)
	}
	if strings.Count(out, " -> ") != 2 {
		t.Errorf("stdout = %q", out)
	}
	d, err := deck.LoadDir(dir, deck.Options{})
	if err != nil {
		t.Fatalf("imported cards do not load as a deck: %v", err)
	}
	if _, ok := d.Card("consumer-group-generation-2"); !ok || d.Len() != 2 {
		t.Errorf("cards: %d, want consumer-group-generation and consumer-group-generation-2", d.Len())
	}

	// A second run refuses to overwrite the existing cards.
	_, stderr, err = runImport(t, "-o", dir, fixture("nopitfalls.txt"))
	if !errors.As(err, &ee) || !strings.Contains(stderr, "exists") {
		t.Errorf("overwrite: err=%v stderr=%q", err, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "consumer-group-generation.md")); len(b) == 0 {
		t.Error("existing card was clobbered")
	}
}

func TestImportSeveralToStdoutAreSeparated(t *testing.T) {
	out, _, err := runImport(t, fixture("timings.txt"), fixture("blanklines.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "==> offsets-committed-onpartitionsrevoked.md (from ") || !strings.Contains(out, "==> max-poll-interval-ms-protect-against.md (from ") {
		t.Errorf("stdout lacks separators:\n%s", out)
	}
}

func TestImportUsage(t *testing.T) {
	_, stderr, err := runImport(t)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(stderr, "usage: rehearse import") {
		t.Errorf("err=%v stderr=%q", err, stderr)
	}
}

// The README's order, files first and -o after them, works like the flag-first one.
func TestImportFlagsAfterFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	out, stderr, err := runImport(t, fixture("complete.txt"), "-o", dir)
	if err != nil || !strings.Contains(out, " -> ") {
		t.Fatalf("err=%v out=%q stderr=%q", err, out, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("wrote %d files, want 1", len(entries))
	}
	b, _ := os.ReadFile(filepath.Join(dir, entries[0].Name()))
	c, errs := deck.Parse("x.md", b)
	if errs != nil || c.Topic != "Static membership" { // the bundled topic rules applied
		t.Fatalf("card: %v, topic %q", errs, c.Topic)
	}
}

// Both seed cards (the bundled seed and a card like the user's that runs over its clock)
// import into a deck that `rehearse check` accepts; the over-long one is a warning, not an error.
func TestImportedSeedsPassCheck(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	_, stderr, err := runImport(t, "-o", dir, fixture("seed-eager-cooperative.txt"), fixture("long-solid.txt"))
	if err != nil || stderr != "" {
		t.Fatalf("import: err=%v stderr=%q", err, stderr)
	}
	out, stderr, err := runCheck(t, dir)
	if err != nil {
		t.Fatalf("check refused the imported cards: %v\n%s", err, stderr)
	}
	if out != "ok: 2 cards in 2 topics, 1 warnings\n" || !strings.Contains(stderr, `warning: `) || !strings.Contains(stderr, `section "Solid answer" runs 124 words`) {
		t.Errorf("stdout=%q stderr=%q", out, stderr)
	}
}

// A binary input is refused in one line, exit 1, and nothing is written, not even the cards of
// the text inputs beside it.
func TestImportRefusesBinaryInput(t *testing.T) {
	tmp := t.TempDir()
	apkg := filepath.Join(tmp, "deck.apkg")
	if err := os.WriteFile(apkg, []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00collection.anki21\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "out")
	out, stderr, err := runImport(t, "-o", dir, fixture("complete.txt"), apkg)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v, want exit 1", err)
	}
	// A zip is read as an Anki package (anki.go), never as text; this one is truncated.
	want := "import: " + apkg + ": not an Anki package: unreadable zip (zip: not a valid zip file)\n"
	if stderr != want || out != "" {
		t.Errorf("stdout=%q stderr=%q, want stderr %q", out, stderr, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written: %v", entries)
	}
}
