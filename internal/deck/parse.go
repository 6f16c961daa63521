package deck

import (
	"bytes"
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Section indexes, in the order a card must contain them.
const (
	secAnswer = iota
	secBasics
	secSolid
	secDeeper
	secExplanation
	secFollowUps
	secPitfalls
	numSections
)

// SectionNames are the card's level-2 headings, in their required order.
var SectionNames = [numSections]string{
	"Answer", "Basics", "Solid answer", "Go deeper", "Explanation", "Follow-ups", "Pitfalls",
}

func sectionIndex(name string) int {
	for i, s := range SectionNames {
		if strings.EqualFold(name, s) {
			return i
		}
	}
	return -1
}

// Parse parses, validates and renders one card file. path is used in errors and as Card.File.
// The card is nil whenever the list is non-empty.
func Parse(path string, src []byte) (card *Card, errList ErrorList) {
	return parse(path, src, true)
}

// parse is Parse, leaving the HTML to the card's first use unless render is set.
func parse(path string, src []byte, render bool) (card *Card, errList ErrorList) {
	e := &errs{file: path}
	defer func() {
		// A parser bug must not take the server down; report it against the file instead.
		if r := recover(); r != nil {
			card, errList = nil, ErrorList{{File: path, Msg: fmt.Sprintf("internal error while parsing: %v", r)}}
		}
	}()
	c := parseCard(e, src)
	if len(e.list) == 0 && render {
		e.list = c.Render()
	}
	if len(e.list) > 0 {
		e.list.Sort()
		return nil, e.list
	}
	return c, nil
}

func parseCard(e *errs, src []byte) *Card {
	if bytes.Contains(src, []byte("\r\n")) { // src itself may be shared (readFile): never written
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	c := &Card{File: e.file}
	fm, body, bodyLine, ok := splitFrontMatter(src)
	if ok {
		parseFrontMatter(e, fm, 2, c)
	} else {
		c.Timing = Timing{DefaultBasics, DefaultSolid, DefaultDeeper}
		if bytes.HasPrefix(src, []byte("---")) {
			e.add(1, "front matter is not closed: add a line \"---\" after its fields")
		} else {
			e.add(1, "missing front matter: a card starts with a line \"---\", its YAML fields, then \"---\"")
		}
	}
	c.html = &cardHTML{file: e.file, body: body, firstLine: bodyLine}
	p := &bodyParser{e: e, src: body, firstLine: bodyLine, card: c.html}
	p.parse(c)
	c.cardLinks, c.codeLangs = p.links, p.langs
	c.html.texts = p.texts
	c.spokenWords = [2]int{SpokenWords(c.Basics.Text()), SpokenWords(c.Solid.Text())}
	return c
}

// bodyParser walks the goldmark AST of a card's markdown body, validating it and making its
// blocks: their text, or with html set (the render pass) their HTML into out. Both passes meet
// the blocks in the same order, so a block's index finds its HTML from the render.
type bodyParser struct {
	e          *errs
	src        []byte
	firstLine  int   // file line of src[0]
	lineStarts []int // byte offsets where each body line starts

	html  bool
	card  *cardHTML       // where the blocks find their HTML
	n     int             // blocks made so far
	out   []template.HTML // rendered blocks (render pass)
	links []string        // ids of /cards/ links (text pass)
	langs []string        // languages of fenced code (text pass)
	texts []string        // the blocks' text (text pass)
}

type section struct {
	line  int
	nodes []ast.Node
}

func (p *bodyParser) parse(c *Card) {
	if len(p.src) > 0 {
		p.lineStarts = make([]int, 1, bytes.Count(p.src, []byte("\n"))+1)
		for i, b := range p.src {
			if b == '\n' {
				p.lineStarts = append(p.lineStarts, i+1)
			}
		}
	}
	var doc ast.Node
	if p.html {
		pc := parser.NewContext(parser.WithIDs(newIDs()))
		doc = md.Parser().Parse(text.NewReader(p.src), parser.WithContext(pc))
	} else {
		doc = mdText.Parse(text.NewReader(p.src))
	}

	var secs [numSections]*section
	var cur *section // nil before the first section and inside unknown or duplicate ones
	maxSeen, strayReported := -1, false
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		h, isHeading := n.(*ast.Heading)
		switch {
		case isHeading && h.Level == 1:
			continue // reported by the walk below, like nested ones
		case isHeading && h.Level == 2:
			name, line := inlineText(p.src, h), p.line(n)
			idx := sectionIndex(name)
			cur = nil
			switch {
			case idx < 0:
				p.e.add(line, "unknown section %q (want %s)", name, sectionList())
			case secs[idx] != nil:
				p.e.add(line, "duplicate section %q (first at line %d)", SectionNames[idx], secs[idx].line)
			default:
				if idx < maxSeen {
					p.e.add(line, "section %q is out of order: it must come before %q", SectionNames[idx], SectionNames[maxSeen])
				}
				maxSeen = max(maxSeen, idx)
				secs[idx] = &section{line: line}
				cur = secs[idx]
			}
			continue
		}
		if cur != nil {
			cur.nodes = append(cur.nodes, n)
		} else if maxSeen < 0 && !strayReported {
			p.e.add(p.line(n), "text before the first section (## Answer)")
			strayReported = true
		}
	}

	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering && h.Level == 1 {
			p.e.add(p.line(n), "level-1 heading %q: sections use ## and headings inside them ### or deeper", inlineText(p.src, h))
		}
		return ast.WalkContinue, nil
	})

	if plainCard(secs) {
		c.Plain = true
		c.Answer = []Block{p.prose(secs[secAnswer], secAnswer)}
		return
	}

	lastLine := p.firstLine + len(p.lineStarts) - 1
	if len(p.lineStarts) > 1 && p.lineStarts[len(p.lineStarts)-1] == len(p.src) {
		lastLine-- // a final newline ends the last line rather than starting another
	}
	for i, s := range secs {
		if s != nil {
			continue
		}
		at := lastLine
		for j := i + 1; j < numSections; j++ {
			if secs[j] != nil {
				at = secs[j].line
				break
			}
		}
		p.e.add(at, "missing section \"## %s\"", SectionNames[i])
	}

	if s := secs[secAnswer]; s != nil {
		c.Answer = p.bullets(s, secAnswer, false)
	}
	if s := secs[secBasics]; s != nil {
		c.Basics = p.prose(s, secBasics)
		c.spokenLine[0], c.spokenCode[0] = s.line, codeIn(p.src, s.nodes)
	}
	if s := secs[secSolid]; s != nil {
		c.Solid = p.prose(s, secSolid)
		c.spokenLine[1], c.spokenCode[1] = s.line, codeIn(p.src, s.nodes)
	}
	if s := secs[secDeeper]; s != nil {
		items := p.bullets(s, secDeeper, true)
		if len(items) == 4 {
			copy(c.Deeper[:], items)
		}
	}
	if s := secs[secExplanation]; s != nil {
		c.Explanation = p.prose(s, secExplanation)
	}
	if s := secs[secFollowUps]; s != nil {
		c.FollowUps = p.followUps(s)
	}
	if s := secs[secPitfalls]; s != nil {
		c.Pitfalls = p.bullets(s, secPitfalls, false)
	}
}

// plainCard reports whether the card has an Answer section and nothing else: a plain card (an
// imported flashcard) whose answer is any markdown, with no spoken answers, ladder, explanation,
// follow-ups or pitfalls.
func plainCard(secs [numSections]*section) bool {
	if secs[secAnswer] == nil {
		return false
	}
	for i, s := range secs {
		if i != secAnswer && s != nil {
			return false
		}
	}
	return true
}

func sectionList() string {
	names := make([]string, numSections)
	for i, s := range SectionNames {
		names[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(names, ", ")
}

// bullets checks that a section holds exactly one list (ordered or not, as asked; "Go deeper"
// with exactly four items) and renders each item.
func (p *bodyParser) bullets(s *section, idx int, ordered bool) []Block {
	name := SectionNames[idx]
	want := "a bullet list (- item)"
	if ordered {
		want = "an ordered list of exactly 4 items (1. ...)"
	}
	if len(s.nodes) == 0 {
		p.e.add(s.line, "section %q is empty: want %s", name, want)
		return nil
	}
	list, ok := s.nodes[0].(*ast.List)
	if !ok || list.IsOrdered() != ordered {
		p.e.add(p.line(s.nodes[0]), "section %q must be %s", name, want)
		return nil
	}
	if len(s.nodes) > 1 {
		p.e.add(p.line(s.nodes[1]), "section %q must hold only %s; found more after it", name, want)
	}
	var items []Block
	for it := list.FirstChild(); it != nil; it = it.NextSibling() {
		if !it.HasChildren() {
			p.e.add(p.line(it), "empty list item in %q", name)
			continue
		}
		items = append(items, p.render(it, children(it)...))
	}
	if ordered && list.ChildCount() != 4 {
		p.e.add(p.line(list), "section %q must be an ordered list of exactly 4 items, found %d", name, list.ChildCount())
	}
	return items
}

// prose renders a free-form section, which must not be empty.
func (p *bodyParser) prose(s *section, idx int) Block {
	if len(s.nodes) == 0 {
		p.e.add(s.line, "section %q is empty", SectionNames[idx])
		return Block{}
	}
	return p.render(s.nodes[0], s.nodes...)
}

// followUps splits the section at its ### headings; each must be followed by an answer.
func (p *bodyParser) followUps(s *section) []FollowUp {
	var out []FollowUp
	type pending struct {
		fu    FollowUp
		line  int
		nodes []ast.Node
	}
	var cur *pending
	flush := func() {
		if cur == nil {
			return
		}
		if len(cur.nodes) == 0 {
			p.e.add(cur.line, "follow-up %q has no answer", cur.fu.Question)
		} else {
			cur.fu.Answer = p.render(cur.nodes[0], cur.nodes...)
			out = append(out, cur.fu)
		}
		cur = nil
	}
	stray := false
	for _, n := range s.nodes {
		if h, ok := n.(*ast.Heading); ok && h.Level == 3 {
			flush()
			q := inlineText(p.src, h)
			if q == "" {
				p.e.add(p.line(n), "empty follow-up question")
			}
			cur = &pending{fu: FollowUp{Question: q}, line: p.line(n)}
			continue
		}
		if cur == nil {
			if !stray {
				p.e.add(p.line(n), "text before the first follow-up: start each with \"### question\"")
				stray = true
			}
			continue
		}
		cur.nodes = append(cur.nodes, n)
	}
	flush()
	if len(out) == 0 && !stray && len(s.nodes) == 0 {
		p.e.add(s.line, "section \"Follow-ups\" is empty: add \"### question\" headings, each followed by its answer")
	}
	return out
}

// render makes the block of the nodes; at locates its errors.
func (p *bodyParser) render(at ast.Node, nodes ...ast.Node) Block {
	b := Block{html: p.card, i: p.n}
	p.n++
	if !p.html {
		p.texts = append(p.texts, blockText(p.src, nodes))
		for _, n := range nodes {
			_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
				switch v := n.(type) {
				case *ast.Link:
					if id := cardLink(v.Destination); id != "" && entering {
						p.links = append(p.links, id)
					}
				case *ast.FencedCodeBlock:
					if lang := v.Language(p.src); lang != nil && entering {
						p.langs = append(p.langs, string(lang))
					}
				}
				return ast.WalkContinue, nil
			})
		}
	}
	if p.html {
		h, err := blockHTML(p.src, nodes)
		if err != nil {
			p.e.add(p.line(at), "cannot render markdown: %v", err)
			h = renderNotice
		}
		p.out = append(p.out, h)
	}
	return b
}

func children(n ast.Node) []ast.Node {
	var out []ast.Node
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = append(out, c)
	}
	return out
}

// line is the 1-based file line where n starts.
func (p *bodyParser) line(n ast.Node) int {
	off := nodeOffset(n)
	if off < 0 {
		return p.firstLine
	}
	i := sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > off })
	return p.firstLine + max(i-1, 0)
}

// nodeOffset finds the byte offset of a node's start, looking at its lines or children when the
// node itself records none.
func nodeOffset(n ast.Node) int {
	if pos := n.Pos(); pos >= 0 {
		return pos
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if off := nodeOffset(c); off >= 0 {
			return off
		}
	}
	return -1
}
