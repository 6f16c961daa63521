package deck

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/rehearse/rehearse/content"
)

// allBlocks is every block of c, in file order.
func allBlocks(c *Card) []Block {
	bs := append([]Block{}, c.Answer...)
	bs = append(bs, c.Basics, c.Solid)
	bs = append(bs, c.Deeper[:]...)
	bs = append(bs, c.Explanation)
	for _, f := range c.FollowUps {
		bs = append(bs, f.Answer)
	}
	return append(bs, c.Pitfalls...)
}

// A loaded card renders on first use to exactly what Parse renders at once, block for block:
// the two passes must meet the blocks in the same order. The bundled deck has every feature.
func TestLazyRenderMatchesParse(t *testing.T) {
	d, err := Load(content.FS, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range d.Cards {
		if c.html.blocks != nil || c.html.body == nil {
			t.Fatalf("%s rendered during Load", c.File)
		}
		src, err := fs.ReadFile(content.FS, c.File)
		if err != nil {
			t.Fatal(err)
		}
		eager, errs := Parse(c.File, src)
		if errs != nil {
			t.Fatal(errs)
		}
		lazy, want := allBlocks(c), allBlocks(eager)
		if len(lazy) != len(want) {
			t.Fatalf("%s: %d blocks, Parse made %d", c.File, len(lazy), len(want))
		}
		for i := range lazy {
			if lazy[i].Text() != want[i].Text() || lazy[i].HTML() != want[i].HTML() || lazy[i].HTML() == "" {
				t.Errorf("%s block %d differs:\nlazy  %q\nParse %q", c.File, i, lazy[i].HTML(), want[i].HTML())
			}
		}
		if c.html.body != nil {
			t.Errorf("%s keeps its markdown after rendering", c.File)
		}
	}
}

// Many first views of one card at once render it once, and every one sees the whole HTML.
func TestConcurrentFirstUse(t *testing.T) {
	src := card("only", "Q?", "T", "Text with code:\n\n```go\nfunc f() {}\n```\n")
	d, err := Load(mapFS(map[string]string{"a.md": src}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	eager, _ := Parse("a.md", []byte(src))
	want := eager.Explanation.HTML()
	if !strings.Contains(string(want), `class="chroma"`) {
		t.Fatalf("reference not highlighted: %s", want)
	}
	c := d.Cards[0]
	var wg sync.WaitGroup
	got := make([]string, 16)
	for i := range got {
		wg.Go(func() {
			blocks := allBlocks(c)
			b := blocks[(i*7)%len(blocks)] // first calls land on different blocks
			_ = b.HTML()
			got[i] = string(c.Explanation.HTML())
		})
	}
	wg.Wait()
	for i, g := range got {
		if g != string(want) {
			t.Fatalf("goroutine %d saw %q, want %q", i, g, want)
		}
	}
}

// A lexer that panics stands for a renderer bug: the markdown is valid, its HTML cannot be made.
var registerBoom = sync.OnceFunc(func() {
	lexers.Register(chroma.MustNewLexer(&chroma.Config{Name: "boom-test", Aliases: []string{"boom"}},
		func() chroma.Rules {
			return chroma.Rules{"root": {{Pattern: `(?s).+`, Type: chroma.EmitterFunc(func([]string, *chroma.LexerState) chroma.Iterator {
				panic("lexer bug")
			})}}}
		}))
})

func TestBlockThatFailsToRender(t *testing.T) {
	registerBoom()
	src := card("boom", "Q?", "T", "Before.\n\n```boom\nx\n```\n")
	line := 1 + strings.Count(src[:strings.Index(src, "### Part")], "\n") // the Explanation block's first line
	fsys := mapFS(map[string]string{"kafka/boom.md": src})

	// Served: the deck loads, the card shows a notice for that block and the rest as usual.
	d, err := Load(fsys, Options{})
	if err != nil {
		t.Fatalf("lazy load: %v", err)
	}
	c := d.Cards[0]
	if h := c.Explanation.HTML(); h != renderNotice {
		t.Errorf("failed block shows %q", h)
	}
	if h := c.Answer[0].HTML(); h != "one" {
		t.Errorf("other blocks: %q", h)
	}
	want := fmt.Sprintf("kafka/boom.md:%d: cannot render markdown: internal error", line)
	if errs := c.Render(); len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), want) {
		t.Errorf("Render() = %v, want one error starting %q", errs, want)
	}

	// Checked (`rehearse check`) or parsed (the editor): the same failure refuses the card.
	var list ErrorList
	if _, err := Load(fsys, Options{Render: true}); !errors.As(err, &list) || len(list) != 1 || !strings.HasPrefix(list[0].Error(), want) {
		t.Errorf("eager load: %v, want %q", err, want)
	}
	if _, errs := Parse("kafka/boom.md", []byte(src)); len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), want) {
		t.Errorf("Parse: %v", errs)
	}
}

// Validation needs no HTML: code in a spoken answer and links to missing cards are found in the
// parse tree, whether the code is a span or a block and the link inline or by reference.
func TestChecksFromTheParseTree(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"code block in a spoken answer", strings.Replace(baseCard, "Solid text.", "Solid text.\n\n    session.timeout.ms", 1),
			`section "Solid answer" holds code "session.timeout.ms\n"`},
		{"link by reference", card("first", "Q?", "T", "See [that][ref].\n\n[ref]: /cards/gone#part\n"),
			`link to /cards/gone: no card in the deck has id "gone"`},
	} {
		_, err := Load(mapFS(map[string]string{"a.md": tc.src}), Options{Strict: true})
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 || !strings.Contains(list[0].Msg, tc.want) {
			t.Errorf("%s: %v, want one error with %s", tc.name, err, tc.want)
		}
	}
}

// WarmUp finds the languages to prepare in the parse tree, without rendering any card.
func TestWarmUpLanguages(t *testing.T) {
	src := card("only", "Q?", "T", "```go\nx := 1\n```\n\n```no-such-language\nplain\n```\n")
	d, err := Load(mapFS(map[string]string{"a.md": src}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(d.Cards[0].codeLangs, ","); got != "go,no-such-language" {
		t.Errorf("languages %q", got)
	}
	d.WarmUp()
	if d.Cards[0].html.blocks != nil {
		t.Error("WarmUp rendered a card")
	}
}
