package deck

import (
	"bytes"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/content"
)

// fastAgrees checks the fast front-matter reader against the YAML parser on src: where the fast
// one answers, YAML must find no error and set the very same fields. It reports whether the
// fast reader answered.
func fastAgrees(t *testing.T, src []byte) bool {
	t.Helper()
	var fast, slow Card
	if !fastFrontMatter(src, 2, &fast) {
		return false
	}
	e := &errs{file: "f.md"}
	yamlFrontMatter(e, src, 2, &slow)
	if len(e.list) > 0 {
		t.Fatalf("fast reader accepted front matter YAML refuses (%v):\n%s", e.list, src)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fast reader and YAML differ on\n%s\nfast: %+v %+v\nyaml: %+v %+v", src, fast, fast.Sim, slow, slow.Sim)
	}
	return true
}

func frontMatterOf(t *testing.T, src []byte) []byte {
	fm, _, _, ok := splitFrontMatter(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")))
	if !ok {
		t.Fatalf("no front matter in\n%s", src)
	}
	return fm
}

func TestFastFrontMatterAgrees(t *testing.T) {
	answered, total := 0, 0
	check := func(fm []byte) {
		total++
		if fastAgrees(t, fm) {
			answered++
		}
	}
	// Every bundled card.
	_ = fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && !strings.EqualFold(d.Name(), "README.md") {
			b, _ := fs.ReadFile(content.FS, p)
			check(frontMatterOf(t, b))
		}
		return nil
	})
	// The shapes bench/gendeck writes, and variations around the subset's edges.
	base := "id: gen-0187\nquestion: \"Static retry latency?\"\ntopic: Liveness and timeouts\ntags: [assign, static]\n" +
		"simulation:\n  preset: consumer-rolling-restart\n  compare: [eager, cooperative, consumer]\n  caption: \"Worker stream poll.\"\n"
	check([]byte(base))
	if !fastAgrees(t, []byte(base)) {
		t.Fatalf("the fast reader gave up on bench/gendeck's shape:\n%s", base)
	}
	for _, v := range []string{
		"id: a\nquestion: Why, and how?\ntopic: T\n",
		"id: a\nquestion: Why does it pause — all of it?\ntopic: Kafka’s group\n",
		"id: a\nquestion: 'Single quoted'\ntopic: T\n",
		"id: a\nquestion: \"  padded  \"\ntopic: T\n",
		"id: a\nquestion: \"\"\ntopic: T\n",
		"id: a\nquestion: \"a\\\"b\"\ntopic: T\n",
		"id: a\nquestion: 'it''s'\ntopic: T\n",
		"id: a\nquestion: yes\ntopic: T\n",
		"id: a\nquestion: No\ntopic: T\n",
		"id: a\nquestion: null\ntopic: T\n",
		"id: a\nquestion: ~\ntopic: T\n",
		"id: a\nquestion: 12\ntopic: T\n",
		"id: a\nquestion: 1.5e3\ntopic: T\n",
		"id: 2024\nquestion: Q\ntopic: T\n",
		"id: a\nquestion: C# and F#\ntopic: T\n",
		"id: a\nquestion: a: b\ntopic: T\n",
		"id: a\nquestion: a #b\ntopic: T\n",
		"id: a\nquestion: Q   \ntopic: T   \n",
		"id: a\nquestion: Q\ntopic: T\ntags: []\n",
		"id: a\nquestion: Q\ntopic: T\ntags: [Kafka]\n",
		"id: a\nquestion: Q\ntopic: T\ntags: [kafka,consumer ,  x-y]\n",
		"id: a\nquestion: Q\ntopic: T\ntags:\n  - kafka\n",
		"id: a\nquestion: Q\ntopic: T\ntiming: {basics: 20s, solid: 40s, deeper: 90s}\n",
		"id: a\nquestion: Q\ntopic: T\ntiming: {basics: 1m30s}\n",
		"id: a\nquestion: Q\ntopic: T\ntiming:\n  basics: 25s\n  deeper: 2m\n",
		"id: a\nquestion: Q\ntopic: T\ntiming:\n  basics: 25s\n   deeper: 2m\n",
		"id: a\nquestion: Q\ntopic: T\ntiming: {basics: 0s}\n",
		"id: a\nquestion: Q\ntopic: T\ntiming: {basics: 20}\n",
		"id: a\nquestion: Q\ntopic: T\ntiming: {basics: 0x1h}\n",
		"id: a\nquestion: Q\ntopic: T\nsimulation:\n  preset: p\n  compare: [eager]\n",
		"id: a\nquestion: Q\ntopic: T\nsimulation:\n  preset: p\n  compare: [eager, cooperative+static]\n  caption: C\n",
		"id: a\nquestion: Q\ntopic: T\nsimulation:\n    preset: p\n    compare: [eager]\n    caption: C\n",
		"id: a\nquestion: Q\ntopic: T\nsimulation:\n  preset: p\n  compare: [eager]\n  caption: C\n  overrides:\n    members: 3\n",
		"id: a\nquestion: Q\ntopic: T\nsimulation:\n\tpreset: p\n",
		"id: a\nquestion: Q\n\ntopic: T\n",
		"# c\nid: a\nquestion: Q\ntopic: T\n",
		"id: a\nid: b\nquestion: Q\ntopic: T\n",
		"id: a\nquestion: Q\n",
		"id: A\nquestion: Q\ntopic: T\n",
		"id: a\nquestion: Q\ntopic: T\nextra: x\n",
		"id: a\nquestion: Q\ntopic: [T]\n",
		"id: a\nquestion: Q\ntopic: T\n---\nid: b\n",
		"id: a\nquestion: Q (with parentheses) and - dashes, 'quotes'?\ntopic: T\n",
		"id: a\nquestion: Q?\ntopic: T\r\n",
	} {
		check([]byte(v))
	}
	t.Logf("fast reader answered %d of %d", answered, total)
}

// FuzzFastFrontMatter: wherever the fast reader answers, YAML agrees.
func FuzzFastFrontMatter(f *testing.F) {
	f.Add([]byte("id: a\nquestion: \"Q?\"\ntopic: T t\ntags: [a, b]\ntiming: {basics: 20s}\nsimulation:\n  preset: p\n  compare: [eager, x+y]\n  caption: 'C'\n"))
	f.Add([]byte("id: a\nquestion: Why, and how?\ntopic: T\ntiming:\n  basics: 1m\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fastAgrees(t, src)
	})
}
