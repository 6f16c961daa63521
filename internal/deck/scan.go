package deck

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Loading checks a card's shape: its sections, their lists, the length of its spoken answers,
// and links to other cards. Most cards are written in a plain subset of markdown (paragraphs,
// "- " and "1. " lists of one-paragraph items, ATX headings, fenced code), where those checks
// need only the lines, so quickBody reads them with a line scanner instead of goldmark, a third
// of loading a large deck. The scanner gives up on anything outside the subset, and on anything
// that would be an error: goldmark then parses the card as before, so errors and edge cases are
// always goldmark's, and where the scanner answers it agrees with goldmark
// (TestQuickBodyAgrees, FuzzQuickBody). A card read this way gets its blocks' plain text from
// goldmark on first use (Block.Text), like its HTML.

// qnode is a top-level block the scanner found: 'p' paragraph, 'l' list, 'f' fenced code, 'h'
// heading. Its lines are body lines [from, to).
type qnode struct {
	kind     byte
	level    int  // heading
	ordered  bool // list
	items    int  // list
	from, to int
}

// quickBody fills c's sections from body (its first line is file line firstLine) when the
// scanner can read it, and reports whether it did; c is untouched otherwise.
func quickBody(c *Card, body []byte, firstLine int) bool {
	if bytes.IndexByte(body, '\r') >= 0 || bytes.IndexByte(body, 0) >= 0 {
		return false
	}
	lines := splitLines(body)
	nodes, langs, ok := scanBlocks(lines)
	if !ok {
		return false
	}
	links, ok := linkCandidates(body)
	if !ok {
		return false
	}
	q := Card{html: c.html}
	if !q.quickSections(nodes, lines, firstLine) {
		return false
	}
	c.Answer, c.Basics, c.Solid, c.Deeper, c.Explanation, c.FollowUps, c.Pitfalls =
		q.Answer, q.Basics, q.Solid, q.Deeper, q.Explanation, q.FollowUps, q.Pitfalls
	c.spokenLine, c.spokenWords = q.spokenLine, q.spokenWords
	c.cardLinks, c.codeLangs = links, langs
	c.html.quick = true
	return true
}

// scanBlocks splits the lines into top-level blocks, or gives up.
func scanBlocks(lines [][]byte) (nodes []qnode, langs []string, ok bool) {
	var cur *qnode // the open paragraph or list
	itemIndent := 0
	blank := true // the previous line was blank (or there was none)
	closeCur := func(at int) {
		if cur != nil {
			cur.to = at
			nodes = append(nodes, *cur)
			cur = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		indent := 0
		for indent < len(l) && l[indent] == ' ' {
			indent++
		}
		rest := l[indent:]
		if len(rest) == 0 {
			if cur != nil && cur.kind == 'p' {
				closeCur(i)
			}
			blank = true
			continue
		}
		if rest[0] == '\t' {
			return nil, nil, false
		}
		if indent > 0 { // only ever a paragraph's next line, or an item's next paragraph
			if !safeStart(rest) {
				return nil, nil, false
			}
			switch {
			case !blank && cur != nil:
			case blank && cur != nil && cur.kind == 'l' && indent == itemIndent:
			default:
				return nil, nil, false
			}
			blank = false
			continue
		}
		switch {
		case l[0] == '#':
			level := 0
			for level < len(l) && l[level] == '#' {
				level++
			}
			if level > 6 || level < len(l) && l[level] != ' ' {
				return nil, nil, false
			}
			n := qnode{kind: 'h', level: level, from: i, to: i + 1} // its text when needed (heading)
			closeCur(i)
			nodes = append(nodes, n)
		case bytes.HasPrefix(l, []byte("```")) || bytes.HasPrefix(l, []byte("~~~")):
			end, lang, ok := fenceEnd(lines, i)
			if !ok {
				return nil, nil, false
			}
			closeCur(i)
			nodes = append(nodes, qnode{kind: 'f', from: i, to: end + 1})
			if lang != "" {
				langs = append(langs, lang)
			}
			i = end
		default:
			ordered, width, isItem := listMarker(l)
			if !isItem {
				if !safeStart(l) {
					return nil, nil, false
				}
				if blank || cur == nil {
					closeCur(i)
					cur = &qnode{kind: 'p', from: i}
				} // else the next line of the paragraph (a list item's, lazily)
				break
			}
			if !safeStart(l[width:]) {
				return nil, nil, false
			}
			switch {
			case cur != nil && cur.kind == 'l' && cur.ordered == ordered:
				cur.items++
			case cur != nil && cur.kind == 'l':
				return nil, nil, false // a list of the other kind right after: left to goldmark
			default:
				if cur != nil && !blank && ordered && !bytes.HasPrefix(l, []byte("1.")) {
					return nil, nil, false // "2." cannot interrupt a paragraph: it continues it
				}
				closeCur(i)
				cur = &qnode{kind: 'l', ordered: ordered, items: 1, from: i}
			}
			itemIndent = width
		}
		blank = false
	}
	closeCur(len(lines))
	return nodes, langs, true
}

// listMarker recognises "- " and "N. " (N of 1 to 9 digits) at the start of a line followed by
// text; width is where the item's text starts.
func listMarker(l []byte) (ordered bool, width int, ok bool) {
	if len(l) > 2 && l[0] == '-' && l[1] == ' ' && l[2] != ' ' {
		return false, 2, true
	}
	n := 0
	for n < len(l) && n < 10 && l[n] >= '0' && l[n] <= '9' {
		n++
	}
	if n >= 1 && n <= 9 && len(l) > n+2 && l[n] == '.' && l[n+1] == ' ' && l[n+2] != ' ' {
		return true, n + 2, true
	}
	return false, 0, false
}

// safeStart reports whether a line whose text starts as s (after its indent) can only be text
// of a paragraph: it cannot open any other block (heading, list item, quote, fence, HTML,
// thematic break, setext underline, link reference definition). A table is a paragraph's
// lines too (goldmark makes it from one), so its rows are text here.
func safeStart(s []byte) bool {
	c := s[0]
	switch {
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || strings.IndexByte("()\"'|:/$%@,.;?!^{}]", c) >= 0:
		return true
	case c >= '0' && c <= '9':
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		return n == len(s) || s[n] != '.' && s[n] != ')'
	case c == '*' || c == '_' || c == '-':
		return len(s) > 1 && s[1] != ' ' && s[1] != '\t' && len(bytes.Trim(s, string([]byte{c, ' '}))) > 0
	case c == '~' || c == '`':
		return !bytes.HasPrefix(s, []byte{c, c, c})
	}
	return false
}

// fenceEnd finds the line closing the fenced code opened at line i, and the fence's language.
func fenceEnd(lines [][]byte, i int) (end int, lang string, ok bool) {
	l := lines[i]
	ch, n := l[0], 0
	for n < len(l) && l[n] == ch {
		n++
	}
	info := bytes.TrimSpace(l[n:])
	if ch == '`' && bytes.IndexByte(info, '`') >= 0 || bytes.ContainsAny(info, "\\&") {
		return 0, "", false
	}
	if f := bytes.Fields(info); len(f) > 0 {
		lang = string(f[0])
	}
	for j := i + 1; j < len(lines); j++ {
		t := lines[j]
		indent := 0
		for indent < len(t) && indent < 4 && t[indent] == ' ' {
			indent++
		}
		if indent > 3 {
			continue
		}
		t = t[indent:]
		m := 0
		for m < len(t) && t[m] == ch {
			m++
		}
		if m >= n && len(bytes.Trim(t[m:], " \t")) == 0 {
			return j, lang, true
		}
	}
	return 0, "", false // unclosed: runs to the end of the card
}

// heading is the inline text of the heading node n: the words of plain text, or goldmark's.
// Only section and follow-up headings need it.
func heading(lines [][]byte, n qnode) (string, bool) {
	l := lines[n.from]
	if text := bytes.TrimSpace(l[n.level:]); bytes.IndexByte(text, '#') < 0 && plainInline(text) {
		return strings.Join(strings.Fields(string(text)), " "), true
	}
	return headingText(l)
}

// headingText is the inline text of a heading line with markup, from goldmark. Parsing the
// line alone gives what it gives in the card: inline markup is local but for reference links,
// and a card the scanner reads defines no references.
func headingText(l []byte) (string, bool) {
	doc := mdText.Parse(text.NewReader(l))
	h, ok := doc.FirstChild().(*ast.Heading)
	if !ok || h.NextSibling() != nil {
		return "", false
	}
	return inlineText(l, h), true
}

// plainInline reports whether text holds no inline markup that changes its plain text (code,
// emphasis, links, HTML, entities, escapes), so its words are its plain text.
func plainInline(text []byte) bool {
	return !bytes.ContainsAny(text, "`*_~[]<>&\\!|")
}

// linkCandidates lists every id written after "/cards/" in body: a superset of the card links
// goldmark finds, since a link to a card must spell "/cards/" out (no escapes, entities or
// <...> destinations, which send the card to goldmark). Each id must end where a link's would
// (")", "#", "?", "/", a space, ">" or the line's end), so the id is the link's whole id. A
// candidate that names no card sends the card to goldmark for its exact links (checkLinks).
func linkCandidates(body []byte) ([]string, bool) {
	if bytes.Contains(body, []byte("](")) && (bytes.ContainsAny(body, "\\&") || bytes.Contains(body, []byte("](<"))) {
		return nil, false
	}
	var out []string
	for rest := body; ; {
		i := bytes.Index(rest, []byte(CardLinkPrefix))
		if i < 0 {
			return out, true
		}
		rest = rest[i+len(CardLinkPrefix):]
		n := 0
		for n < len(rest) && (rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= '0' && rest[n] <= '9' || rest[n] == '-') {
			n++
		}
		if n == 0 || n < len(rest) && !bytes.ContainsRune([]byte(")#?/ \n>"), rune(rest[n])) {
			return nil, false
		}
		out = append(out, string(rest[:n]))
		rest = rest[n:]
	}
}

// quickSections checks the section rules on the scanned blocks and makes the card's blocks, in
// the order bodyParser makes them; false on any problem (goldmark then reports it).
func (c *Card) quickSections(nodes []qnode, lines [][]byte, firstLine int) bool {
	var secs [numSections][]qnode
	var seen [numSections]bool
	var lineOf [numSections]int
	cur := -1
	for _, n := range nodes {
		if n.kind == 'h' && n.level == 2 {
			name, ok := heading(lines, n)
			idx := sectionIndex(name)
			if !ok || idx <= cur || seen[idx] {
				return false
			}
			cur, seen[idx], lineOf[idx] = idx, true, firstLine+n.from
			continue
		}
		if cur < 0 || n.kind == 'h' && n.level == 1 {
			return false
		}
		secs[cur] = append(secs[cur], n)
	}
	for i := range seen {
		if !seen[i] || len(secs[i]) == 0 {
			return false
		}
	}
	b := 0
	block := func() Block { b++; return Block{html: c.html, i: b - 1} }
	list := func(s []qnode, ordered bool) []Block {
		if len(s) != 1 || s[0].kind != 'l' || s[0].ordered != ordered {
			return nil
		}
		out := make([]Block, s[0].items)
		for i := range out {
			out[i] = block()
		}
		return out
	}
	if c.Answer = list(secs[secAnswer], false); c.Answer == nil {
		return false
	}
	for i, s := range []int{secBasics, secSolid} {
		var words int
		for _, n := range secs[s] {
			if n.kind != 'p' {
				return false
			}
			for _, l := range lines[n.from:n.to] {
				if bytes.ContainsAny(l, "`[<&\\|") { // code, links, HTML, entities, escapes, tables
					return false
				}
				words += spokenWords(l)
			}
		}
		c.spokenLine[i], c.spokenWords[i] = lineOf[s], words
		if i == 0 {
			c.Basics = block()
		} else {
			c.Solid = block()
		}
	}
	deeper := list(secs[secDeeper], true)
	if len(deeper) != 4 {
		return false
	}
	copy(c.Deeper[:], deeper)
	c.Explanation = block()
	fus := secs[secFollowUps]
	for i := 0; i < len(fus); {
		h := fus[i]
		if h.kind != 'h' || h.level != 3 {
			return false
		}
		q, ok := heading(lines, h)
		if !ok || q == "" {
			return false
		}
		j := i + 1
		for j < len(fus) && !(fus[j].kind == 'h' && fus[j].level == 3) {
			j++
		}
		if j == i+1 {
			return false
		}
		c.FollowUps = append(c.FollowUps, FollowUp{Question: q, Answer: block()})
		i = j
	}
	c.Pitfalls = list(secs[secPitfalls], false)
	return c.Pitfalls != nil
}
