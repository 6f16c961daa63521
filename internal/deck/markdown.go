package deck

import (
	"bufio"
	"bytes"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// HeadingIDPrefix starts every heading id generated inside a card, so card headings cannot clash
// with the page's own anchors.
const HeadingIDPrefix = "card-"

// md is shared: goldmark's Markdown is safe for concurrent use once built.
var md = goldmark.New(
	goldmark.WithExtensions(
		extension.Table,
		extension.Strikethrough,
		extension.Linkify,
	),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	// No html.WithUnsafe: raw HTML never reaches the page; escapeRawHTML shows it as text instead.
	goldmark.WithRendererOptions(
		html.WithXHTML(),
		renderer.WithNodeRenderers(util.Prioritized(escapeRawHTML{}, 100), util.Prioritized(highlightCode{}, 100),
			util.Prioritized(newEmptyCorner(), 100)), // tablecell.go
	),
)

// mdText parses for the text pass (validation, plain text, links): the same block and inline
// structure as md without what only the HTML needs. Linkify costs a seventh of parsing (it
// looks at every space) and only turns bare URLs into links; heading ids only show in HTML.
var mdText = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser()

// escapeRawHTML renders raw HTML (inline and block) as visible, escaped text, so an author who
// typed <b> sees it rather than losing it silently, and a <script> can never run.
type escapeRawHTML struct{}

func (escapeRawHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

func renderRawHTML(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := n.(*ast.RawHTML).Segments
		for i := 0; i < segs.Len(); i++ {
			template.HTMLEscape(w, segValue(segs, i, src))
		}
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	_, _ = w.WriteString("<p>")
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		template.HTMLEscape(w, segValue(lines, i, src))
	}
	if b.HasClosure() {
		template.HTMLEscape(w, b.ClosureLine.Value(src))
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkContinue, nil
}

var (
	cssOnce sync.Once
	css     string
)

// HighlightCSS returns the stylesheet for the CSS classes used by highlighted code blocks: the
// light style, and the dark one for a dark theme (chosen on the page, or the browser's when the
// page leaves it open, as app.css does).
func HighlightCSS() string {
	cssOnce.Do(func() {
		var light, dark bytes.Buffer
		if codeFormatter.WriteCSS(&light, codeStyle) != nil || codeFormatter.WriteCSS(&dark, codeStyleDark) != nil {
			return
		}
		var b strings.Builder
		b.WriteString(light.String())
		// The light style sets no text colour, which would inherit the dark theme's light text.
		text := "#1f2328" // GitHub's own text colour, which its chroma style leaves unset
		if c := codeStyle.Get(chroma.Text).Colour; c.IsSet() {
			text = c.String()
		}
		fmt.Fprintf(&b, ".chroma { color: %s; }\n", text)
		b.WriteString(scopeCSS(dark.String(), ":root[data-theme=dark] "))
		b.WriteString("@media (prefers-color-scheme: dark) {\n")
		b.WriteString(scopeCSS(dark.String(), ":root:not([data-theme=light]) "))
		b.WriteString("}\n")
		css = b.String()
	})
	return css
}

// scopeCSS puts prefix before every selector of chroma's stylesheet, one rule per line. A token
// class the dark style leaves out must not keep the light style's colour: every token first
// inherits the block's text colour.
func scopeCSS(sheet, prefix string) string {
	var b strings.Builder
	b.WriteString(prefix + ".chroma span { color: inherit; }\n")
	for line := range strings.Lines(sheet) {
		if _, rule, ok := strings.Cut(line, "*/ "); ok {
			line = rule
		}
		sel, body, ok := strings.Cut(line, "{")
		if !ok {
			continue
		}
		parts := strings.Split(strings.TrimSpace(sel), ",")
		for i, p := range parts {
			parts[i] = prefix + strings.TrimSpace(p)
		}
		b.WriteString(strings.Join(parts, ", ") + " {" + body)
	}
	return b.String()
}

// prefixedIDs generates unique heading ids, each starting with HeadingIDPrefix.
type prefixedIDs struct{ used map[string]bool }

func newIDs() *prefixedIDs { return &prefixedIDs{used: map[string]bool{}} }

func (p *prefixedIDs) Generate(value []byte, _ ast.NodeKind) []byte {
	base := HeadingIDPrefix + Slugify(string(value))
	if base == HeadingIDPrefix {
		base += "heading"
	}
	id := base
	for i := 1; p.used[id]; i++ {
		id = base + "-" + strconv.Itoa(i)
	}
	p.used[id] = true
	return []byte(id)
}

func (p *prefixedIDs) Put(value []byte) { p.used[string(value)] = true }

// Slugify lower-cases s and joins its runs of letters and digits with single hyphens: the form of
// card ids, topic slugs and heading anchors.
func Slugify(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
		} else {
			hyphen = true
		}
	}
	return b.String()
}

// bufWriters hold the buffered writers render hands goldmark.
var bufWriters = sync.Pool{New: func() any { return bufio.NewWriter(nil) }}

// blockHTML renders the nodes to HTML. A panic in a renderer (a lexer bug, say) becomes an
// error, so one bad code block costs only its own block.
func blockHTML(src []byte, nodes []ast.Node) (h template.HTML, err error) {
	defer func() {
		if r := recover(); r != nil {
			h, err = "", fmt.Errorf("internal error: %v", r)
		}
	}()
	var b bytes.Buffer
	// goldmark wraps a plain writer in a new 4 KiB bufio.Writer on every call, a third of
	// everything loading allocated; a pooled one is reused (Render flushes it).
	bw := bufWriters.Get().(*bufio.Writer)
	bw.Reset(&b)
	defer func() { bw.Reset(nil); bufWriters.Put(bw) }()
	for _, n := range nodes {
		if err := md.Renderer().Render(bw, src, n); err != nil {
			return "", err
		}
	}
	return template.HTML(b.String()), nil
}

// blockText is the plain text of the nodes, one line per block, each line trimmed and blank
// lines dropped (compact for search).
func blockText(src []byte, nodes []ast.Node) string {
	var t strings.Builder
	for _, n := range nodes {
		if t.Len() > 0 {
			t.WriteByte('\n')
		}
		plainText(&t, src, n)
	}
	raw := t.String()
	var b strings.Builder
	b.Grow(len(raw))
	for l := range strings.SplitSeq(raw, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(l)
		}
	}
	return b.String()
}

// plainText writes the readable text of n: words without markup, one line per block.
func plainText(b *strings.Builder, src []byte, n ast.Node) {
	switch v := n.(type) {
	case *ast.Text:
		b.Write(v.Segment.Value(src))
		if v.SoftLineBreak() {
			b.WriteByte(' ')
		} else if v.HardLineBreak() {
			b.WriteByte('\n')
		}
		return
	case *ast.String:
		b.Write(v.Value)
		return
	case *ast.RawHTML:
		for i := 0; i < v.Segments.Len(); i++ {
			b.Write(segValue(v.Segments, i, src))
		}
		return
	case *ast.AutoLink:
		b.Write(v.URL(src))
		return
	}
	if n.Type() == ast.TypeBlock && !n.HasChildren() {
		// Code and HTML blocks keep their text in lines rather than child nodes.
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			b.Write(segValue(lines, i, src))
		}
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		plainText(b, src, c)
		if c.Type() == ast.TypeBlock && c.NextSibling() != nil {
			b.WriteByte('\n')
		}
	}
}

// inlineText is the plain text of a heading or other inline container, on one line.
func inlineText(src []byte, n ast.Node) string {
	var b strings.Builder
	plainText(&b, src, n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func segValue(s *text.Segments, i int, src []byte) []byte {
	seg := s.At(i)
	return seg.Value(src)
}
