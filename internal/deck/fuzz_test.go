package deck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that no input makes the parser panic (Parse recovers, so a recovered panic
// shows as an "internal error") and that errors always name the file.
func FuzzParse(f *testing.F) {
	f.Add([]byte(baseCard))
	if b, err := os.ReadFile("testdata/valid/kafka/eager.md"); err == nil {
		f.Add(b)
	}
	f.Add([]byte("---\nid: x\n---\n## Answer\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, errs := Parse("f.md", src)
		for _, e := range errs {
			if e.File != "f.md" || e.Line < 0 || strings.Contains(e.Msg, "internal error") {
				t.Fatalf("bad error: %v", e)
			}
		}
		if errs == nil && (c == nil || !validSlug(c.ID) || c.Question == "" || len(c.Answer) == 0) {
			t.Fatalf("no errors but incomplete card: %+v", c)
		}
	})
}

// FuzzImport checks that whatever the input, the importer's output is a valid card.
func FuzzImport(f *testing.F) {
	files, _ := filepath.Glob("testdata/import/*.txt")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("Q?\nanswer\n- ## a\nbasics\n~5 s<pre>\ngo deeper\n# h\n- a?b\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		md, id, _ := Import("f.txt", src)
		if _, errs := Parse(id+".md", md); errs != nil {
			t.Fatalf("import output does not parse:\n%v\n---\n%s", errs, md)
		}
	})
}
