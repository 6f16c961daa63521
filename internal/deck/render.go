package deck

import (
	"fmt"
	"html/template"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// A loaded deck is validated in full from the parse tree (sections, lists, lengths, links,
// code in spoken answers), but a card's HTML is rendered on the first HTML call of any of its
// blocks: highlighting the code is most of the work of rendering, and most cards
// are not viewed soon after a start. Each card renders once (sync.Once), whoever asks first;
// the rest wait for that render rather than repeating it.

// renderNotice replaces a block that could not be rendered.
const renderNotice = template.HTML(`<p class="render-error">This part of the card could not be shown; ` +
	"<code>rehearse check</code> on the deck names the problem.</p>\n")

// cardHTML is a card's rendered blocks, in the order the parser meets them, and their text.
type cardHTML struct {
	once      sync.Once // the render
	file      string
	body      []byte // the markdown body, until rendered
	firstLine int    // file line of body[0]
	blocks    []template.HTML
	errs      ErrorList
	texts     []string // each block's plain text, from the load
}

func (h *cardHTML) block(i int) template.HTML {
	h.once.Do(h.render)
	if i < len(h.blocks) {
		return h.blocks[i]
	}
	return renderNotice
}

func (h *cardHTML) text(i int) string {
	if i < len(h.texts) {
		return h.texts[i]
	}
	return ""
}

func (h *cardHTML) render() {
	defer func() {
		if r := recover(); r != nil { // a failure outside any one block: nothing is shown
			h.blocks, h.errs = nil, ErrorList{{File: h.file, Line: h.firstLine, Msg: fmt.Sprintf("internal error while rendering: %v", r)}}
		}
		h.body = nil
	}()
	e := &errs{file: h.file}
	p := &bodyParser{e: e, src: h.body, firstLine: h.firstLine, html: true}
	// The load validated the card: any error now is one of rendering.
	p.parse(&Card{})
	h.blocks, h.errs = p.out, e.list
}

// Render renders the card's HTML now unless it already was, and returns the problems that left
// a part of it unshown, at their file lines. Load leaves rendering to first use unless
// Options.Render is set (`rehearse check` sets it); Parse always renders.
func (c *Card) Render() ErrorList {
	if c.html == nil {
		return nil
	}
	c.html.once.Do(c.html.render)
	return c.html.errs
}

// cardLink is the card id a link destination points at as /cards/<id>, compared as the
// renderer writes the href (URL-escaped), or "".
func cardLink(dest []byte) string {
	href := string(util.EscapeHTML(util.URLEscape(dest, true)))
	if len(href) <= len(CardLinkPrefix) || href[:len(CardLinkPrefix)] != CardLinkPrefix {
		return ""
	}
	id := href[len(CardLinkPrefix):]
	for i := 0; i < len(id); i++ {
		if c := id[i]; c == '"' || c == '#' || c == '?' || c == '/' {
			id = id[:i]
			break
		}
	}
	return id
}

// codeIn is the text of every code span and code block among the nodes, as they show on the page.
func codeIn(src []byte, nodes []ast.Node) []string {
	var out []string
	for _, n := range nodes {
		_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch v := n.(type) {
			case *ast.CodeSpan:
				var b []byte
				for c := v.FirstChild(); c != nil; c = c.NextSibling() {
					if t, ok := c.(*ast.Text); ok {
						val := t.Segment.Value(src)
						if len(val) > 0 && val[len(val)-1] == '\n' { // as the renderer writes a line break
							val = append(val[:len(val)-1:len(val)-1], ' ')
						}
						b = append(b, val...)
					}
				}
				out = append(out, string(b))
				return ast.WalkSkipChildren, nil
			case *ast.FencedCodeBlock, *ast.CodeBlock:
				var b []byte
				lines := n.Lines()
				for i := 0; i < lines.Len(); i++ {
					b = append(b, segValue(lines, i, src)...)
				}
				out = append(out, string(b))
				return ast.WalkSkipChildren, nil
			}
			return ast.WalkContinue, nil
		})
	}
	return out
}
