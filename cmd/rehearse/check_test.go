package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCheck(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	err = cmdCheck(context.Background(), args, func(string) string { return "" }, stdio{strings.NewReader(""), &out, &errb})
	return out.String(), errb.String(), err
}

func TestCheckValidDeck(t *testing.T) {
	out, errs, err := runCheck(t, filepath.Join("..", "..", "internal", "deck", "testdata", "valid"))
	if err != nil || errs != "" {
		t.Fatalf("err=%v stderr=%q", err, errs)
	}
	if out != "ok: 1 cards in 1 topics\n" {
		t.Errorf("stdout = %q", out)
	}
}

func TestCheckReportsErrorsWithDirPrefix(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join("..", "..", "internal", "deck", "testdata", "valid", "kafka", "eager.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "kafka"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(good, []byte("## Pitfalls\n\n-"), []byte("## Pitfalls\n\n"), 1)
	bad = bytes.Replace(bad, []byte("id: connect-eager-rebalancing"), []byte("id: other"), 1)
	for name, data := range map[string][]byte{"kafka/a.md": good, "kafka/b.md": good, "c.md": bad} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, stderr, err := runCheck(t, dir)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v, want exit 1", err)
	}
	if out != "" {
		t.Errorf("stdout = %q", out)
	}
	want := filepath.Join(dir, "c.md") + ":65: section \"Pitfalls\" must be a bullet list (- item)\n" +
		filepath.Join(dir, "kafka", "b.md") + ":2: duplicate id \"connect-eager-rebalancing\": also used by kafka/a.md\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}

func TestCheckMissingDir(t *testing.T) {
	_, stderr, err := runCheck(t, filepath.Join(t.TempDir(), "nope"))
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(stderr, "not a readable directory") {
		t.Errorf("err=%v stderr=%q", err, stderr)
	}
}

// A spoken answer over its clock is a warning by default and an error under --strict.
func TestCheckStrictSpokenLength(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join("..", "..", "internal", "deck", "testdata", "valid", "kafka", "eager.md"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(good, []byte("## Basics\n\n"))
	if i < 0 {
		t.Fatal("no Basics section in the test card")
	}
	long := append(append([]byte{}, good[:i+len("## Basics\n\n")]...), []byte(strings.Repeat("word ", 80)+"\n\n")...)
	long = append(long, good[i+len("## Basics\n\n"):]...)
	if err := os.WriteFile(filepath.Join(dir, "long.md"), long, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runCheck(t, dir)
	if err != nil || !strings.HasPrefix(stderr, "warning: "+filepath.Join(dir, "long.md")+":") || !strings.Contains(stderr, `section "Basics" runs`) {
		t.Fatalf("default: err=%v stderr=%q", err, stderr)
	}
	if out != "ok: 1 cards in 1 topics, 1 warnings\n" {
		t.Errorf("default stdout = %q", out)
	}
	out, stderr, err = runCheck(t, "--strict", dir)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 || out != "" || !strings.HasPrefix(stderr, filepath.Join(dir, "long.md")+":") {
		t.Fatalf("--strict: err=%v stdout=%q stderr=%q", err, out, stderr)
	}
}
