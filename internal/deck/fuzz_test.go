package deck

import (
	"os"
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
