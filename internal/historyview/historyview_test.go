package historyview

import (
	"testing"

	"github.com/rehearse/rehearse/internal/store"
)

func TestPageDiffsAgainstThePreviousText(t *testing.T) {
	revs := []store.Revision{ // newest first
		{ID: 4, Path: "a.md", Markdown: "", Action: "revert"},
		{ID: 3, Path: "a.md", Markdown: "one\nthree\n"},
		{ID: 2, Path: "a.md", Markdown: ""},
		{ID: 1, Path: "a.md", Markdown: "one\ntwo\n"},
	}
	none := func(string) string { t.Fatal("bundled text asked for while an older revision has text"); return "" }
	v := Page("a", true, revs, 0, none)
	if len(v.Revisions) != 4 || !v.Revisions[0].Empty || v.To != 3 || v.From != 1 || !v.CanEdit {
		t.Fatalf("page: %+v", v)
	}
	var added, removed string
	for _, l := range v.Diff {
		switch l.Op {
		case "+":
			added += l.Text
		case "-":
			removed += l.Text
		}
	}
	if added != "three" || removed != "two" {
		t.Fatalf("diff: +%q -%q (%+v)", added, removed, v.Diff)
	}
	v = Page("a", false, revs, 1, func(p string) string {
		if p != "a.md" {
			t.Fatalf("bundled text of %q", p)
		}
		return "one\n"
	})
	if v.To != 1 || v.From != 0 || len(v.Diff) == 0 {
		t.Fatalf("first edit against the bundled file: %+v", v)
	}
	if _, ok := Restorable(revs, 4); ok {
		t.Fatal("a revision without text is not restorable")
	}
	if r, ok := Restorable(revs, 3); !ok || r.ID != 3 {
		t.Fatal("revision 3 is restorable")
	}
}
