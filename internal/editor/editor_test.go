package editor

import (
	"strings"
	"testing"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
)

func bundled(t *testing.T) *deck.Deck {
	t.Helper()
	d, err := deck.Load(content.FS, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestTemplateIsACompleteCard(t *testing.T) {
	d := bundled(t)
	c, errs := Check(d, Target{Path: "03-eager/my-card.md"}, []byte(Template("my-card", "Eager rebalancing")), nil)
	if errs != nil || c.ID != "my-card" || len(c.FollowUps) != 1 || len(c.Pitfalls) != 1 || c.Deeper[3].Text() == "" {
		t.Fatalf("template: %v %+v", errs, c)
	}
}

func TestCheckRefusesWithLines(t *testing.T) {
	d := bundled(t)
	existing := d.Cards[0]
	tmpl := Template("my-card", existing.Topic)
	folder := existing.File[:strings.Index(existing.File, "/")]
	for _, tt := range []struct {
		name string
		t    Target
		src  string
		want string
	}{
		{"rename", Target{Path: existing.File, ID: existing.ID}, Template("renamed", existing.Topic), existing.File + ":2: id: this card is"},
		{"duplicate from another file", Target{Path: folder + "/" + existing.ID + ".md"}, Template(existing.ID, existing.Topic), ":2: duplicate id"},
		{"file name", Target{Path: folder + "/other.md"}, tmpl, ":2: id: the file is other.md"},
		{"no folder", Target{Path: "my-card.md"}, tmpl, "my-card.md: folder: a card lives in a topic folder"},
		{"bad folder", Target{Path: "a/b/my-card.md"}, tmpl, `folder "a/b" is not a topic folder`},
		{"topic of another folder", Target{Path: folder + "/my-card.md"}, Template("my-card", "Something else"), ":4: topic: folder " + folder},
		{"too big", Target{Path: folder + "/my-card.md"}, tmpl + strings.Repeat("x", MaxCardBytes), "the limit is 64 KiB"},
		{"reserved id readme", Target{Path: folder + "/readme.md"}, Template("readme", existing.Topic), `README files are not cards`},
		{"reserved id readme, other file", Target{Path: folder + "/x.md"}, Template("readme", existing.Topic), `id "readme" is reserved`},
		{"reserved id new", Target{Path: folder + "/new.md"}, Template("new", existing.Topic), `id "new" is reserved`},
		{"parse error", Target{Path: folder + "/my-card.md"}, strings.Replace(tmpl, "## Basics", "## Basix", 1), ":14: unknown section"},
	} {
		_, errs := Check(d, tt.t, []byte(tt.src), nil)
		if len(errs) == 0 || !strings.Contains(errs.Error(), tt.want) {
			t.Errorf("%s: errors %v, want one containing %q", tt.name, errs, tt.want)
		}
	}
	// A new folder is fine: it starts a topic.
	if _, errs := Check(d, Target{Path: "12-team/my-card.md"}, []byte(Template("my-card", "Our team")), nil); errs != nil {
		t.Errorf("new folder: %v", errs)
	}
}

func TestDiff(t *testing.T) {
	got, coarse := Diff("a\nb\nc\nd\n", "a\nc\nx\nd\n")
	var b strings.Builder
	for _, l := range got {
		b.WriteByte(byte(l.Op))
		b.WriteString(l.Text)
		b.WriteByte(' ')
	}
	if b.String() != " a -b  c +x  d " || !Changed(got) || coarse {
		t.Errorf("diff = %q", b.String())
	}
	if got[4].A != 4 || got[4].B != 4 || got[3].B != 3 || got[1].A != 2 {
		t.Errorf("line numbers %+v", got)
	}
}

// Two revisions of 30,000 different one-character lines (the audit's history page) are over the
// table's bound: the diff shows them replaced, says it is coarse, and its line numbers hold.
func TestDiffOfHugeRevisionsIsBounded(t *testing.T) {
	a := "id\n" + strings.Repeat("a\n", 30000) + "end\n"
	b := "id\n" + strings.Repeat("b\n", 30000) + "end\n"
	got, coarse := Diff(a, b)
	if !coarse || len(got) != 60002 {
		t.Fatalf("coarse %v, %d lines", coarse, len(got))
	}
	if got[0].Op != Same || got[1] != (Line{Del, "a", 2, 0}) || got[30001] != (Line{Add, "b", 0, 2}) || got[60001] != (Line{Same, "end", 30002, 30002}) {
		t.Errorf("lines %+v %+v %+v %+v", got[0], got[1], got[30001], got[60001])
	}
	// An edit inside a long card is still aligned: the common start and end are set aside.
	c := strings.Replace(a, "a\n", "x\n", 1)
	got, coarse = Diff(a, c)
	if coarse || len(got) != 30003 || !Changed(got) {
		t.Errorf("one-line edit: coarse %v, %d lines", coarse, len(got))
	}
	if same, _ := Diff(a, a); Changed(same) {
		t.Error("a text differs from itself")
	}
}

func TestSimilarFindsRewordingsNotNeighbours(t *testing.T) {
	d := bundled(t)
	c := d.Cards[0]
	reworded := "So, " + strings.TrimSuffix(c.Question, "?") + ", in your own words?"
	m := Similar(d, reworded, "")
	if len(m) == 0 || m[0].Card != c {
		t.Fatalf("rewording of %q not matched: %+v", c.Question, m)
	}
	if m := Similar(d, c.Question, c.ID); len(m) > 0 && m[0].Card == c {
		t.Error("the card itself was not excluded")
	}
	// No bundled question is flagged against another: they are all different questions.
	for _, c := range d.Cards {
		if m := Similar(d, c.Question, c.ID); len(m) > 0 {
			t.Errorf("%s flagged as like %s (%.2f)", c.ID, m[0].Card.ID, m[0].Score)
		}
	}
}
