package anki

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
)

// makeApkg writes a package with testdata/make_apkg.py (Python's sqlite3 and zipfile, and the
// zstd tool for anki21b): an independent writer, not this package's.
func makeApkg(t *testing.T, format string) string {
	t.Helper()
	for _, tool := range []string{"python3", "zstd"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is needed to write the test package", tool)
			}
			t.Skipf("%s not installed", tool)
		}
	}
	out := filepath.Join(t.TempDir(), "deck-"+format+".apkg")
	cmd := exec.Command("python3", "testdata/make_apkg.py", out, format)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make_apkg.py: %v\n%s", err, b)
	}
	return out
}

func readFile(t *testing.T, path string) (*Package, error) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Read(context.Background(), bytes.NewReader(b), int64(len(b)), t.TempDir(), DefaultLimits)
}

func TestReadEveryFormat(t *testing.T) {
	for _, format := range []string{"anki2", "anki21", "anki21b"} {
		t.Run(format, func(t *testing.T) {
			p, err := readFile(t, makeApkg(t, format))
			if err != nil {
				t.Fatal(err)
			}
			if want := "collection." + format; p.Format != want {
				t.Errorf("format %q, want %q", p.Format, want)
			}
			cards, media := Convert(p)
			var ids []string
			for _, c := range cards {
				ids = append(ids, c.ID)
				if _, errs := deck.Parse(c.Path, c.Markdown); len(errs) > 0 {
					t.Errorf("%s does not parse: %v\n%s", c.ID, errs, c.Markdown)
				}
				t.Logf("%s\n%s", c.Path, c.Markdown)
			}
			if got, want := strings.Join(ids, " "), "anki-1 anki-2 anki-3 anki-3-r anki-4-c1 anki-4-c2"; got != want {
				t.Errorf("cards %s, want %s", got, want)
			}
			if len(media) != 1 || media[0].Name != "diagram.png" || media[0].Type != "image/png" {
				t.Errorf("media %+v", media)
			}
		})
	}
}

func TestConvertKeepsFormattingAndTags(t *testing.T) {
	p, err := readFile(t, makeApkg(t, "anki2"))
	if err != nil {
		t.Fatal(err)
	}
	cards, _ := Convert(p)
	byID := map[string]Imported{}
	for _, c := range cards {
		byID[c.ID] = c
	}
	md := string(byID["anki-1"].Markdown)
	for _, want := range []string{
		"The leader waits for *all* in-sync replicas.",
		"- durable\n- slower",
		"```\nprops.put(\"acks\", \"all\");\nprops.put(\"retries\", 3);\n```",
		"[the docs](<https://kafka.apache.org/documentation/>)",
		"![](/media/",
		"tags: [kafka, producer-acks]",
		`question: "What does acks=all mean?"`,
		`topic: "Kafka / Producers"`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("anki-1 lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "alert") {
		t.Errorf("the script survived:\n%s", md)
	}
	// Text that looks like markdown structure stays text: the card keeps its one section.
	c, errs := deck.Parse("x.md", byID["anki-2"].Markdown)
	if len(errs) > 0 || !c.Plain || len(c.Answer) != 1 {
		t.Fatalf("anki-2: %v plain=%v", errs, c != nil && c.Plain)
	}
	if html := string(c.Answer[0].HTML()); !strings.Contains(html, "## not a heading") || strings.Contains(html, "<h2") || strings.Contains(html, "<li>") {
		t.Errorf("anki-2 answer HTML %s", html)
	}
	if q := byID["anki-4-c2"].Question; q != "A consumer group shares [what]." {
		t.Errorf("cloze 2 question %q", q)
	}
	if !strings.Contains(string(byID["anki-4-c1"].Markdown), "A **consumer group** shares partitions.") {
		t.Errorf("cloze 1 answer:\n%s", byID["anki-4-c1"].Markdown)
	}
	if !byID["anki-3-r"].Suspended || byID["anki-3"].Suspended {
		t.Errorf("suspension not carried over")
	}
}
