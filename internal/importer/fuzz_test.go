package importer

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/rehearse/rehearse/internal/deck"
)

// FuzzImport checks that whatever the input, the importer's output is a valid card, and one a
// deck accepts as it stands (`rehearse check` without --strict: spoken length only warns).
func FuzzImport(f *testing.F) {
	files, _ := filepath.Glob("testdata/import/*.txt")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("Q?\nanswer\n- ## a\nbasics\n~5 s<pre>\ngo deeper\n# h\n- a?b\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		md, id, _ := Import("f.txt", src, testTopics)
		if _, errs := deck.Parse(id+".md", md); errs != nil {
			t.Fatalf("import output does not parse:\n%v\n---\n%s", errs, md)
		}
		if _, err := deck.Load(fstest.MapFS{id + ".md": {Data: md}}, deck.Options{}); err != nil {
			t.Fatalf("a deck refuses the import output:\n%v\n---\n%s", err, md)
		}
	})
}
