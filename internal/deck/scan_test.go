package deck

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/content"
)

// scanAgrees parses src with the line scanner and with goldmark alone. Where the scanner reads
// the card, goldmark must accept it too and give the same card: the same blocks (text and
// HTML), questions, spoken-answer lengths and errors, and links within the scanner's candidates.
// It reports whether the scanner read the card.
func scanAgrees(t *testing.T, src []byte) bool {
	t.Helper()
	eq, eg := &errs{file: "f.md"}, &errs{file: "f.md"}
	q, g := parseCardWith(eq, src, true), parseCardWith(eg, src, false)
	if !q.html.quick {
		return false
	}
	if len(eg.list) > 0 || len(eq.list) > 0 {
		t.Fatalf("the scanner read a card goldmark refuses (%v):\n%s", eg.list, src)
	}
	fail := func(what string, a, b any) {
		t.Helper()
		t.Fatalf("%s: scanner %#v, goldmark %#v, in\n%s", what, a, b, src)
	}
	blocks := func(c *Card) []Block {
		bs := append(slices.Clone(c.Answer), c.Basics, c.Solid)
		bs = append(bs, c.Deeper[:]...)
		bs = append(bs, c.Explanation)
		for _, f := range c.FollowUps {
			bs = append(bs, f.Answer)
		}
		return append(bs, c.Pitfalls...)
	}
	bq, bg := blocks(q), blocks(g)
	if len(bq) != len(bg) || len(q.Answer) != len(g.Answer) || len(q.FollowUps) != len(g.FollowUps) {
		fail("blocks", len(bq), len(bg))
	}
	for i := range bq {
		if bq[i].Text() != bg[i].Text() {
			fail(fmt.Sprintf("text of block %d", i), bq[i].Text(), bg[i].Text())
		}
		if bq[i].HTML() != bg[i].HTML() {
			fail(fmt.Sprintf("HTML of block %d", i), bq[i].HTML(), bg[i].HTML())
		}
	}
	for i := range q.FollowUps {
		if q.FollowUps[i].Question != g.FollowUps[i].Question {
			fail("follow-up question", q.FollowUps[i].Question, g.FollowUps[i].Question)
		}
	}
	if q.spokenLine != g.spokenLine || q.spokenWords != g.spokenWords {
		fail("spoken answers", [2][2]int{q.spokenLine, q.spokenWords}, [2][2]int{g.spokenLine, g.spokenWords})
	}
	if a, b := checkSpoken(q), checkSpoken(g); !reflect.DeepEqual(a, b) {
		fail("length errors", a, b)
	}
	for _, id := range g.cardLinks {
		if !slices.Contains(q.cardLinks, id) {
			fail("link candidates", q.cardLinks, g.cardLinks)
		}
	}
	if !slices.Equal(q.html.exactLinks(), g.cardLinks) {
		fail("exact links", q.html.exactLinks(), g.cardLinks)
	}
	return true
}

// Every card of the bundled deck, the test decks and bench/gendeck's shapes: where the
// scanner answers, goldmark agrees.
func TestQuickBodyAgrees(t *testing.T) {
	read, total := 0, 0
	check := func(b []byte) {
		total++
		if scanAgrees(t, b) {
			read++
		}
	}
	fss := []fs.FS{content.FS, os.DirFS("testdata")}
	if dir := os.Getenv("REHEARSE_BENCH_DECK"); dir != "" { // e.g. bench/gendeck's output
		fss = append(fss, os.DirFS(dir))
	}
	for _, fsys := range fss {
		_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && !strings.EqualFold(d.Name(), "README.md") {
				b, _ := fs.ReadFile(fsys, p)
				check(b)
			}
			return nil
		})
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		check([]byte(randomCard(r)))
	}
	t.Logf("the scanner read %d of %d cards", read, total)
	if read < total/10 {
		t.Errorf("the scanner read only %d of %d cards: the comparison tests little", read, total)
	}
}

// randomCard writes a card of the right sections whose bodies mix plain text with markdown
// on both sides of the scanner's subset.
func randomCard(r *rand.Rand) string {
	p := []float64{0, 0.01, 0.03, 0.1, 0.3}[r.IntN(5)] // how often to leave the plain path
	odd := func() bool { return r.Float64() < p }
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	plain := func(xs ...string) string { // the first choice, or any when odd
		if odd() {
			return pick(xs...)
		}
		return xs[0]
	}
	spoken := false // writing Basics or Solid answer, which hold no links or code when plain
	words := func(n int) string {
		var w []string
		for range n {
			if !odd() {
				w = append(w, pick("group", "member", "leader", "offset", "KIP-848", "2024", "it's", "(paused)",
					"**bold**", "*em*", "_u_", "~~gone~~", "ü", "—", "/cards/other"))
				if !spoken && r.IntN(10) == 0 {
					w = append(w, pick("[x](/cards/other)", "[y](/cards/other#part \"t\")", "![i](/img.png)"))
				}
				continue
			}
			w = append(w, pick("`code`", "[link](/cards/other)", "[b](/cards/x#y)", "[c](/cards/other.)", "[d](</cards/other x>)",
				"&amp;", "a\\*b", "<b>", "<http://x.io>", "www.x.io", "|", "/cards/zz", "!", "[e](/cards/zz)", "[f][g]"))
		}
		return strings.Join(w, " ")
	}
	para := func() string {
		var ls []string
		for range 1 + r.IntN(3) {
			ls = append(ls, plain("", " ", "  ", "    ")+words(1+r.IntN(6))+plain("", "  ", "\\"))
		}
		return strings.Join(ls, "\n")
	}
	item := func(marker string) string {
		s := marker + words(1+r.IntN(5))
		switch r.IntN(8) {
		case 0:
			s += "\n" + pick("  ", "   ", "", "    ") + words(2)
		case 1:
			s += "\n\n" + plain(strings.Repeat(" ", len(marker)), "  ", "   ") + words(2)
		case 2:
			if odd() {
				s += "\n" + pick("  - nested", "  1. nested", "  ```\n  x\n  ```", "# h1", "- ", "---")
			}
		}
		return s
	}
	list := func(ordered bool, n int) string {
		var items []string
		for i := range n {
			m := "- "
			if ordered {
				m = fmt.Sprintf("%d. ", i+1)
			}
			if odd() {
				m = pick("* ", "+ ", "1) ", "-  ", "2. ", "- ")
			}
			items = append(items, item(m))
		}
		return strings.Join(items, pick("\n", "\n", "\n\n"))
	}
	block := func() string {
		k := r.IntN(12)
		if k >= 3 && k <= 4 && !odd() {
			k = 5
		}
		switch k {
		case 0:
			return list(false, 1+r.IntN(3))
		case 1:
			return plain("```go\nfunc f() {}\n```", "~~~\n```\ninside\n~~~", "```\n## not a heading\n  ```", "```java\nunclosed", "````\n```\n````")
		case 2:
			return plain("#### Deeper", "### Sub heading", "### With **bold**", "###")
		case 3:
			return pick("> quote", "<div>\nhtml\n</div>", "| a | b |\n|---|---|\n| 1 | 2 |", "a | b\n--|--", "Setext\n===", "***", "    indented code", "[ref]: /cards/nope")
		case 4:
			return para() + "\n" + pick("2. continues", "1. interrupts", "- interrupts", "# h1 interrupts")
		}
		return para()
	}
	blocks := func(n int) string {
		var bs []string
		for range n {
			bs = append(bs, block())
		}
		return strings.Join(bs, pick("\n\n", "\n\n", "\n"))
	}
	var b strings.Builder
	b.WriteString("---\nid: rc\nquestion: Q?\ntopic: T\n---\n\n")
	sec := func(name, body string) { fmt.Fprintf(&b, "## %s\n\n%s\n\n", name, body) }
	sec("Answer", list(false, 1+r.IntN(4)))
	spoken = true
	sec("Basics", plain(para(), blocks(1)))
	sec("Solid answer", plain(para()+"\n\n"+para(), para(), blocks(2)))
	spoken = false
	sec("Go deeper", list(true, 4-b2i(odd())))
	sec("Explanation", blocks(1+r.IntN(4)))
	fus := ""
	for range 1 + r.IntN(3) {
		fus += "### " + plain("Why?", "What about *this*?", "How does it end", "", "Why? ##") + "\n\n" + blocks(1+r.IntN(2)) + "\n\n"
	}
	sec("Follow-ups", fus)
	sec("Pitfalls", list(false, 1+r.IntN(3)))
	return b.String()
}

// FuzzQuickBody: wherever the scanner reads a card, goldmark gives the same card.
func FuzzQuickBody(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		f.Add([]byte(randomCard(r)))
	}
	if b, err := os.ReadFile("testdata/valid/kafka/eager.md"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		scanAgrees(t, src)
	})
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
