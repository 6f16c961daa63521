package main

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
)

// pythonApkg writes an Anki package with internal/anki/testdata/make_apkg.py, which uses
// Python's sqlite3 and zipfile: an independent writer.
func pythonApkg(t *testing.T, format string) string {
	t.Helper()
	for _, tool := range []string{"python3", "zstd"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is needed", tool)
			}
			t.Skipf("%s not installed", tool)
		}
	}
	out := filepath.Join(t.TempDir(), "kafka.apkg")
	if b, err := exec.Command("python3", filepath.Join("..", "..", "internal", "anki", "testdata", "make_apkg.py"), out, format).CombinedOutput(); err != nil {
		t.Fatalf("make_apkg.py: %v\n%s", err, b)
	}
	return out
}

func TestImportApkgMakesCheckedCards(t *testing.T) {
	pkg := pythonApkg(t, "anki21")
	dir := filepath.Join(t.TempDir(), "out")
	out, stderr, err := runImport(t, "-o", dir, pkg)
	if err != nil || stderr != "" {
		t.Fatalf("err=%v stderr=%q", err, stderr)
	}
	if !strings.Contains(out, "6 cards from 4 notes (collection.anki21, 9 reviews, 1 images)") {
		t.Errorf("stdout %q", out)
	}
	d, err := deck.LoadDir(dir, deck.Options{})
	if err != nil {
		t.Fatalf("imported cards do not load: %v", err)
	}
	// The two Basic notes are one card each, HTML turned into markdown and tags kept.
	for id, tags := range map[string]string{"anki-1": "kafka producer-acks", "anki-2": "kafka"} {
		c, ok := d.Card(id)
		if !ok || !c.Plain || strings.Join(c.Tags, " ") != tags || c.Topic != "Kafka / Producers" {
			t.Errorf("%s: %+v", id, c)
		}
	}
	c, _ := d.Card("anki-1")
	html := string(c.Answer[0].HTML())
	for _, want := range []string{"<em>all</em>", "<li>durable</li>", "<pre><code>props.put(", `href="https://kafka.apache.org/documentation/"`, `<img src="/media/`} {
		if !strings.Contains(html, want) {
			t.Errorf("anki-1 lacks %s:\n%s", want, html)
		}
	}
	if imgs, _ := filepath.Glob(filepath.Join(dir, "_media", "*.png")); len(imgs) != 1 {
		t.Errorf("images written: %v", imgs)
	}
	// check agrees.
	var o, e bytes.Buffer
	if err := cmdCheck(context.Background(), []string{dir}, func(string) string { return "" }, stdio{nil, &o, &e}); err != nil {
		t.Errorf("check: %v %s", err, e.String())
	}
}

func TestImportNonZipApkgOneLineExit1(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "deck.apkg")
	os.WriteFile(bad, []byte("What is a consumer group?\nAnswer:\n- a set of consumers\n"), 0o644)
	dir := filepath.Join(t.TempDir(), "out")
	_, stderr, err := runImport(t, "-o", dir, bad)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v, want exit 1", err)
	}
	if want := "import: " + bad + ": not an Anki package: the file is not a zip archive\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*", "*")); len(files) != 0 {
		t.Errorf("files written: %v", files)
	}
}

func TestExportApkgReadsBackWithSQLite(t *testing.T) {
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Skip("sqlite3 not installed")
	}
	out := filepath.Join(t.TempDir(), "deck.apkg")
	var o, e bytes.Buffer
	if err := cmdExport(context.Background(), []string{"--apkg", "-o", out}, func(string) string { return "" }, stdio{nil, &o, &e}); err != nil {
		t.Fatalf("%v %s", err, e.String())
	}
	zr, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	col := filepath.Join(t.TempDir(), "collection.anki2")
	for _, f := range zr.File {
		if f.Name == "collection.anki2" {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			os.WriteFile(col, b, 0o644)
		}
	}
	rows, err := exec.Command(sqlite3, col, "SELECT sfld FROM notes ORDER BY id").Output()
	if err != nil {
		t.Fatal(err)
	}
	d := loadBundled(t)
	var want []string
	for _, c := range d.Cards {
		want = append(want, c.Question)
	}
	if got := strings.TrimSpace(string(rows)); got != strings.Join(want, "\n") {
		t.Errorf("exported notes' questions differ from the deck's (%d notes, %d cards)", strings.Count(got, "\n")+1, len(want))
	}
}

func loadBundled(t *testing.T) *deck.Deck {
	t.Helper()
	d, err := deck.Load(content.FS, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
