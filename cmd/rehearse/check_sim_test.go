package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// simDeck writes the valid test card with its simulation block replaced.
func simDeck(t *testing.T, simulation string) string {
	t.Helper()
	good, err := os.ReadFile(filepath.Join("..", "..", "internal", "deck", "testdata", "valid", "kafka", "eager.md"))
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(good, []byte("simulation:\n"))
	end := bytes.Index(good, []byte("\n---\n"))
	if start < 0 || end < start {
		t.Fatal("test card has no simulation block to replace")
	}
	card := append(append(append([]byte{}, good[:start]...), simulation...), good[end:]...)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "card.md"), card, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCheckSimulation(t *testing.T) {
	for _, tc := range []struct{ name, sim, want string }{
		{"unknown preset", "simulation:\n  preset: no-such-preset\n  compare: [eager]\n  caption: Look.", `unknown preset "no-such-preset"`},
		{"bad variant", "simulation:\n  preset: consumer-join\n  compare: [eager, incremental]\n  caption: Look.", `compare[1]`},
		{"bad override", "simulation:\n  preset: consumer-join\n  compare: [eager]\n  caption: Look.\n  overrides:\n    duration_ms: -5", `overrides.duration_ms`},
		{"unknown override", "simulation:\n  preset: consumer-join\n  compare: [eager]\n  caption: Look.\n  overrides:\n    colour: red", `overrides.colour`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := simDeck(t, tc.sim)
			out, stderr, err := runCheck(t, dir)
			var ee exitError
			if !errors.As(err, &ee) || ee.code != 1 {
				t.Fatalf("err = %v, want exit 1 (stdout %q)", err, out)
			}
			prefix := filepath.Join(dir, "card.md") + ":7: simulation: "
			if !strings.HasPrefix(stderr, prefix) || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr = %q, want %q… containing %q", stderr, prefix, tc.want)
			}
		})
	}
	// A good simulation, with members given as a count, passes.
	dir := simDeck(t, "simulation:\n  preset: connect-worker-bounce\n  compare: [eager, incremental]\n  caption: Look.\n  overrides:\n    members: 4")
	if out, stderr, err := runCheck(t, dir); err != nil || out != "ok: 1 cards in 1 topics\n" {
		t.Errorf("good simulation: err=%v stdout=%q stderr=%q", err, out, stderr)
	}
}

func TestCheckBundledContent(t *testing.T) {
	out, stderr, err := runCheck(t, filepath.Join("..", "..", "content"))
	if err != nil || !strings.HasPrefix(out, "ok: ") {
		t.Fatalf("bundled deck fails the check: %v\n%s", err, stderr)
	}
}
