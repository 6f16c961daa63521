package deck

import (
	_ "embed"
	"errors"
	"strings"
	"time"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// highlightStyle is the chroma style whose classes the rendered code blocks use; the dark theme
// gets highlightStyleDark for the same classes.
const highlightStyle, highlightStyleDark = "github", "github-dark"

// highlightCSS styles those classes: chroma's two styles, scoped for the light and dark themes.
// It is generated (go generate; highlight_css_test.go checks it is current) rather than built
// at start, because chroma's styles package parses every style it has when the program starts,
// a tenth of a cold start.
//
//go:generate go test -run TestHighlightCSSIsCurrent -update-css
//go:embed highlight.css
var highlightCSS string

// HighlightCSS returns the stylesheet for the CSS classes used by highlighted code blocks: the
// light style, and the dark one for a dark theme (chosen on the page, or the browser's when the
// page leaves it open, as app.css does).
func HighlightCSS() string { return highlightCSS }

// codeFormatter is shared by every code block. goldmark-highlighting built a new formatter per
// block, and each new one recomputed the style's CSS classes (a seventh of all load time);
// chroma's formatter caches them and is safe for concurrent use. It writes class names only, so
// the style it is handed changes nothing: classStyle is an empty one.
var (
	codeFormatter = chromahtml.New(chromahtml.WithClasses(true))
	classStyle    = chroma.MustNewStyle("classes", chroma.StyleEntries{})
)

// highlightCode renders fenced code blocks: highlighted with CSS classes when chroma knows the
// language, otherwise as an escaped <pre><code class="language-…">.
type highlightCode struct{}

func (highlightCode) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderFencedCode)
}

// WarmUp prepares the highlighter for every language the deck's code blocks name. chroma
// compiles a language's rules on its first use, a few milliseconds each, which would otherwise
// land on the first view of a card with that language; serve calls it once it is listening.
func (d *Deck) WarmUp() {
	seen := map[string]bool{}
	for _, c := range d.Cards {
		for _, lang := range c.codeLangs {
			if seen[lang] {
				continue
			}
			seen[lang] = true
			if lexer := lexers.Get(lang); lexer != nil {
				_, _ = lexer.Tokenise(nil, "")
			}
		}
	}
}

// Highlighting is bounded in time: some of chroma's lexers backtrack badly on hostile input (a
// make block of ten thousand "(" took 15 s), and cards are user input. A block gets at most
// blockHighlightTime and a card's blocks together cardHighlightTime; a block past its share is
// shown as plain text with a note saying so. This is the one place the package reads the clock.
// The bounds are far above what real code takes (a few milliseconds a block), so a machine
// short of CPU does not turn ordinary code plain.
const (
	blockHighlightTime = time.Second
	cardHighlightTime  = 2 * time.Second
)

// highlightBudget is what is left of a card's highlighting time; it rides on the card's
// document node, which every block of one render shares.
type highlightBudget struct{ left time.Duration }

const budgetAttr = "rehearse-highlight-budget"

func budgetOf(n ast.Node) *highlightBudget {
	root := n
	for root.Parent() != nil {
		root = root.Parent()
	}
	if v, ok := root.AttributeString(budgetAttr); ok {
		if b, ok := v.(*highlightBudget); ok {
			return b
		}
	}
	b := &highlightBudget{left: cardHighlightTime}
	root.SetAttributeString(budgetAttr, b)
	return b
}

func renderFencedCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	lang := n.Language(src)
	var code strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		code.Write(segValue(lines, i, src))
	}
	slow := false
	if lang != nil {
		if lexer := lexers.Get(string(lang)); lexer != nil {
			budget := budgetOf(node)
			start := time.Now()
			tokens, err := tokenise(lexer, code.String(), start.Add(min(blockHighlightTime, budget.left)))
			budget.left -= time.Since(start)
			slow = errors.Is(err, errSlowHighlight)
			// The formatter escapes every token; on an error fall through to plain text.
			if err == nil && codeFormatter.Format(w, classStyle, chroma.Literator(tokens...)) == nil {
				return ast.WalkContinue, nil
			}
		}
	}
	_, _ = w.WriteString("<pre><code")
	if lang != nil {
		_, _ = w.WriteString(` class="language-`)
		html.DefaultWriter.Write(w, lang)
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	html.DefaultWriter.RawWrite(w, []byte(code.String()))
	_, _ = w.WriteString("</code></pre>\n")
	if slow {
		_, _ = w.WriteString(`<p class="code-note">Shown without highlighting: colouring this block took longer than a card allows.</p>` + "\n")
	}
	return ast.WalkContinue, nil
}

// errSlowHighlight: the block's highlighting ran past its time.
var errSlowHighlight = errors.New("highlighting took too long")

// tokenise lexes code by deadline, again when the result has error tokens. chroma gives each of
// its regular expressions a 250 ms deadline and takes a match that ran out of time for no
// match, so on a starved machine the same code can come out with error tokens once; most code
// lexes without any, and of up to three tries (while time is left) the one with the fewest is
// kept.
func tokenise(lexer chroma.Lexer, code string, deadline time.Time) ([]chroma.Token, error) {
	var best []chroma.Token
	bestErrs := -1
	for range 3 {
		it, err := lexer.Tokenise(nil, code) // not chroma.Coalesce, which pulls many tokens per call
		if err != nil {
			return nil, err
		}
		var tokens []chroma.Token
		var run strings.Builder // the current run of one token type, coalesced as chroma.Coalesce does
		runType := chroma.EOFType
		errs := 0
		for t := it(); t != chroma.EOF; t = it() {
			if time.Now().After(deadline) {
				if best != nil {
					return best, nil
				}
				return nil, errSlowHighlight
			}
			if t.Type == chroma.Error {
				errs++
			}
			if t.Value == "" {
				continue
			}
			if (t.Type != runType || run.Len() >= 8192) && run.Len() > 0 {
				tokens = append(tokens, chroma.Token{Type: runType, Value: run.String()})
				run.Reset()
			}
			runType = t.Type
			run.WriteString(t.Value)
		}
		if run.Len() > 0 {
			tokens = append(tokens, chroma.Token{Type: runType, Value: run.String()})
		}
		if bestErrs < 0 || errs < bestErrs {
			best, bestErrs = tokens, errs
		}
		if bestErrs == 0 {
			break
		}
	}
	return best, nil
}
