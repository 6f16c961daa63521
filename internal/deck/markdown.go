package deck

import (
	"bufio"
	"bytes"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"sync"

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
	t := textBufs.Get().(*bytes.Buffer)
	defer func() { t.Reset(); textBufs.Put(t) }()
	for _, n := range nodes {
		if t.Len() > 0 {
			t.WriteByte('\n')
		}
		plainText(t, src, n)
	}
	var b strings.Builder
	b.Grow(t.Len())
	for l := range bytes.SplitSeq(t.Bytes(), []byte("\n")) {
		if l = bytes.TrimSpace(l); len(l) > 0 {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.Write(l)
		}
	}
	return b.String()
}

// textBufs hold blockText's raw text, which only lives until it is trimmed.
var textBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// plainText writes the readable text of n: words without markup, one line per block.
func plainText(b *bytes.Buffer, src []byte, n ast.Node) {
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
	var b bytes.Buffer
	plainText(&b, src, n)
	return strings.Join(strings.Fields(b.String()), " ")
}

func segValue(s *text.Segments, i int, src []byte) []byte {
	seg := s.At(i)
	return seg.Value(src)
}
