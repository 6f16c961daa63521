package anki

import (
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Anki fields are HTML fragments. They become markdown with only what a card needs: bold,
// italics, inline code and <pre> blocks, lists, line breaks, links (http, https, mailto) and
// images from the package. Everything else is reduced to its text, and that text is escaped so
// it cannot turn into markdown structure (a "## heading" in a field stays text). Scripts, styles
// and Anki's [sound:...] tags are dropped.

// ImageURL maps a package image name to the URL the card shows it at; "" drops the image.
type ImageURL func(name string) string

var soundTag = regexp.MustCompile(`\[sound:[^\]]*\]`)

// toMarkdown converts one field's HTML to markdown.
func toMarkdown(field string, img ImageURL) string {
	field = soundTag.ReplaceAllString(field, "")
	nodes, err := html.ParseFragment(strings.NewReader(field), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return escapeText(field)
	}
	w := &mdWriter{img: img}
	for _, n := range nodes {
		w.node(n)
	}
	w.endBlock()
	return strings.TrimSpace(strings.Join(w.blocks, "\n\n"))
}

// mdWriter collects blocks (paragraphs, lists, code) of markdown; line is the inline text of the
// block being built.
type mdWriter struct {
	img    ImageURL
	blocks []string
	line   strings.Builder
	lists  []listLevel
}

type listLevel struct {
	ordered bool
	n       int
}

func (w *mdWriter) endBlock() {
	s := strings.TrimSpace(collapseSpaces(w.line.String()))
	w.line.Reset()
	if s != "" {
		w.blocks = append(w.blocks, escapeLineStarts(s))
	}
}

var blockStart = regexp.MustCompile(`(?m)^([-+=]|\d+[.)])`)

// escapeLineStarts escapes what would open a list, a heading underline or a thematic break at
// the start of a paragraph's lines (# and > are escaped wherever they are).
func escapeLineStarts(s string) string {
	return blockStart.ReplaceAllStringFunc(s, func(m string) string {
		if m[0] >= '0' && m[0] <= '9' {
			return m[:len(m)-1] + "\\" + m[len(m)-1:]
		}
		return "\\" + m
	})
}

func (w *mdWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.line.WriteString(escapeText(n.Data))
		return
	case html.ElementNode:
	default:
		w.children(n)
		return
	}
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Head, atom.Title:
	case atom.Br:
		switch cur := strings.TrimRight(w.line.String(), " "); {
		case strings.HasSuffix(cur, "\\\n"): // a second break in a row ends the paragraph
			w.endBlock()
		case strings.TrimSpace(cur) != "":
			w.line.WriteString("\\\n")
		}
	case atom.B, atom.Strong:
		w.wrap(n, "**")
	case atom.I, atom.Em:
		w.wrap(n, "*")
	case atom.Code, atom.Kbd, atom.Tt, atom.Samp:
		if t := strings.TrimSpace(textOf(n)); t != "" {
			w.line.WriteString(codeSpan(t))
		}
	case atom.Pre:
		w.endBlock()
		w.blocks = append(w.blocks, fence(strings.Trim(preText(n), "\n")))
	case atom.A:
		href := attr(n, "href")
		if safeLink(href) {
			var inner mdWriter
			inner.img = w.img
			inner.children(n)
			text := strings.TrimSpace(collapseSpaces(inner.line.String()))
			if text == "" {
				text = escapeText(href)
			}
			w.line.WriteString("[" + text + "](<" + strings.ReplaceAll(href, ">", "%3E") + ">)")
		} else {
			w.children(n)
		}
	case atom.Img:
		src, alt := attr(n, "src"), escapeText(attr(n, "alt"))
		if u := w.img(src); u != "" {
			w.line.WriteString("![" + alt + "](" + u + ")")
		} else if alt != "" {
			w.line.WriteString(alt)
		}
	case atom.Ul, atom.Ol:
		w.list(n, n.DataAtom == atom.Ol)
	case atom.P, atom.Div, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Blockquote,
		atom.Table, atom.Tr, atom.Section, atom.Article, atom.Li:
		w.endBlock()
		switch n.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6: // a heading would start a card section; it stays bold text
			w.wrap(n, "**")
		default:
			w.children(n)
		}
		w.endBlock()
	case atom.Td, atom.Th:
		if strings.TrimSpace(w.line.String()) != "" {
			w.line.WriteString(" · ")
		}
		w.children(n)
	default:
		w.children(n)
	}
}

func (w *mdWriter) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

// wrap writes n's inline content between marks, leaving the marks out when it is empty.
func (w *mdWriter) wrap(n *html.Node, mark string) {
	var inner mdWriter
	inner.img = w.img
	inner.children(n)
	inner.endBlock()
	text := strings.Join(inner.blocks, " ")
	if strings.TrimSpace(text) == "" {
		w.line.WriteString(text)
		return
	}
	lead := text[:len(text)-len(strings.TrimLeft(text, " "))]
	trail := text[len(strings.TrimRight(text, " ")):]
	w.line.WriteString(lead + mark + strings.TrimSpace(text) + mark + trail)
}

// list writes a list as one block, nested lists indented under their item.
func (w *mdWriter) list(n *html.Node, ordered bool) {
	w.endBlock()
	var items []string
	num := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom != atom.Li {
			continue
		}
		num++
		var inner mdWriter
		inner.img = w.img
		inner.children(c)
		inner.endBlock()
		body := strings.Join(inner.blocks, "\n")
		if strings.TrimSpace(body) == "" {
			continue
		}
		marker := "- "
		if ordered {
			marker = strconv.Itoa(num) + ". "
		}
		pad := strings.Repeat(" ", len(marker))
		lines := strings.Split(body, "\n")
		for i := range lines {
			if i > 0 && lines[i] != "" {
				lines[i] = pad + lines[i]
			}
		}
		items = append(items, marker+strings.Join(lines, "\n"))
	}
	if len(items) > 0 {
		w.blocks = append(w.blocks, strings.Join(items, "\n"))
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return strings.TrimSpace(a.Val)
		}
	}
	return ""
}

func safeLink(href string) bool {
	l := strings.ToLower(href)
	return (strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "mailto:")) &&
		!strings.ContainsAny(href, " \n\t<")
}

// textOf is n's text with <br> as a newline.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && n.DataAtom == atom.Br:
			b.WriteString("\n")
		case n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style):
		default:
			if n.Type == html.ElementNode && (n.DataAtom == atom.Div || n.DataAtom == atom.P) && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteString("\n")
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

func preText(n *html.Node) string { return strings.ReplaceAll(textOf(n), "\u00a0", " ") }

// fence puts code in a fenced block whose fence is longer than any backtick run inside it.
func fence(code string) string {
	f := "```"
	for strings.Contains(code, f) {
		f += "`"
	}
	return f + "\n" + code + "\n" + f
}

// codeSpan puts text in an inline code span whose delimiter no run inside matches.
func codeSpan(t string) string {
	t = strings.Join(strings.Fields(t), " ")
	d := "`"
	for strings.Contains(t, d) {
		d += "`"
	}
	if strings.HasPrefix(t, "`") || strings.HasSuffix(t, "`") {
		return d + " " + t + " " + d
	}
	return d + t + d
}

// escapeText escapes the characters markdown would read as structure or inline markup.
func escapeText(s string) string {
	s = strings.ReplaceAll(s, "\u00a0", " ")
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '#', '&', '~', '|':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

var spaces = regexp.MustCompile(`[ \t\r\n]+`)

// collapseSpaces folds runs of white space to one space, keeping the hard breaks ("\\\n").
func collapseSpaces(s string) string {
	parts := strings.Split(s, "\\\n")
	for i, p := range parts {
		parts[i] = spaces.ReplaceAllString(p, " ")
		if i > 0 {
			parts[i] = strings.TrimLeft(parts[i], " ")
		}
		if i < len(parts)-1 {
			parts[i] = strings.TrimRight(parts[i], " ")
		}
	}
	out := strings.Join(parts, "\\\n")
	return strings.TrimSuffix(strings.TrimRight(out, " "), "\\\n")
}

// imageSources lists the src of each <img> in a field.
func imageSources(field string) []string {
	var out []string
	z := html.NewTokenizer(strings.NewReader(field))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if string(name) != "img" {
			continue
		}
		for hasAttr {
			var k, v []byte
			k, v, hasAttr = z.TagAttr()
			if string(k) == "src" {
				out = append(out, strings.TrimSpace(string(v)))
			}
		}
	}
}

// plainText is a field's text on one line, for a question.
func plainText(field string) string {
	nodes, err := html.ParseFragment(strings.NewReader(soundTag.ReplaceAllString(field, "")), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return strings.Join(strings.Fields(field), " ")
	}
	var b strings.Builder
	for _, n := range nodes {
		b.WriteString(textOf(n))
		b.WriteByte(' ')
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
