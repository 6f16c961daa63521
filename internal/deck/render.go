package deck

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// A loaded deck is validated in full from the parse tree (sections, lists, lengths, links,
// code in spoken answers), but a card's HTML is rendered on the first HTML call of any of its
// blocks: highlighting the code was most of the start-up time of a large deck, and most cards
// are not viewed soon after a start. Each card renders once (sync.Once), whoever asks first;
// the rest wait for that render rather than repeating it.

// renderNotice replaces a block that could not be rendered.
const renderNotice = template.HTML(`<p class="render-error">This part of the card could not be shown; ` +
	"<code>rehearse check</code> on the deck names the problem.</p>\n")

// rereadNotice replaces the blocks of a card whose file no longer reads as it did at load
// (deckload's snapshot: changed on disk since).
const rereadNotice = template.HTML(`<p class="render-error">This card's file changed since the deck was loaded; ` +
	"reload the deck to show it.</p>\n")

// cardHTML is a card's rendered blocks, in the order the parser meets them, and their text.
type cardHTML struct {
	once      sync.Once // the render
	textOnce  sync.Once // texts (and links): done at load unless the line scanner read the card
	file      string
	body      []byte // the markdown body, until rendered (nil with fsys set)
	fsys      fs.FS  // where to read the card again for its body (Options.Reread)
	firstLine int    // file line of body[0]
	blocks    []template.HTML
	notice    template.HTML // for a block with no HTML: renderNotice unless set
	errs      ErrorList
	quick     bool     // read by the line scanner (scan.go): texts and links come from goldmark on first use
	texts     []string // each block's plain text
	links     []string // ids of /cards/ links, exactly (the scanner's are a superset)
}

func (h *cardHTML) block(i int) template.HTML {
	h.once.Do(h.render)
	if i < len(h.blocks) {
		return h.blocks[i]
	}
	if h.notice != "" {
		return h.notice
	}
	return renderNotice
}

func (h *cardHTML) text(i int) string {
	h.textOnce.Do(func() { h.parseText(h.source()) })
	if i < len(h.texts) {
		return h.texts[i]
	}
	return ""
}

// exactLinks is the card's /cards/ link ids as goldmark finds them.
func (h *cardHTML) exactLinks() []string {
	h.textOnce.Do(func() { h.parseText(h.source()) })
	return h.links
}

// source is the card's markdown body: kept since the load, or read again from its file.
func (h *cardHTML) source() ([]byte, error) {
	if h.body != nil || h.fsys == nil {
		return h.body, nil
	}
	src, err := fs.ReadFile(h.fsys, h.file)
	if err != nil {
		return nil, err
	}
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	_, body, line, ok := splitFrontMatter(src)
	if !ok || line != h.firstLine {
		return nil, errors.New("its front matter changed")
	}
	return body, nil
}

// parseText runs the text pass over a card the line scanner read: its blocks' text and links.
func (h *cardHTML) parseText(body []byte, err error) {
	if err != nil {
		return // no text; render reports the error
	}
	defer func() {
		if r := recover(); r != nil { // the card parsed at load, so only a goldmark bug lands here
			h.texts = nil
		}
	}()
	p := &bodyParser{e: &errs{file: h.file}, src: body, firstLine: h.firstLine, card: h}
	p.parse(&Card{})
	h.texts, h.links = p.texts, p.links
}

func (h *cardHTML) render() {
	body, err := h.source()
	if h.fsys == nil { // the body goes below: take the text now
		h.textOnce.Do(func() { h.parseText(body, err) })
	}
	if err != nil {
		h.notice, h.errs = rereadNotice, ErrorList{{File: h.file, Msg: fmt.Sprintf("cannot read the card again to show it: %v", err)}}
		return
	}
	defer func() {
		if r := recover(); r != nil { // a failure outside any one block: nothing is shown
			h.blocks, h.errs = nil, ErrorList{{File: h.file, Line: h.firstLine, Msg: fmt.Sprintf("internal error while rendering: %v", r)}}
		}
		h.body = nil
	}()
	e := &errs{file: h.file}
	p := &bodyParser{e: e, src: body, firstLine: h.firstLine, html: true}
	// The text pass validated the card: any error now is one of rendering.
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
