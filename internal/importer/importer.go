// Package importer converts cards written as plain text (see docs/card-format.md, "Importing")
// into markdown cards. It knows nothing about any one subject: the keyword-to-topic rules are
// data passed in (the bundled deck keeps its own in content/import-topics.txt).
package importer

import (
	"bytes"
	"fmt"
	"github.com/rehearse/rehearse/internal/deck"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Import converts one card in the plain-text form to a markdown card. name is used in problems;
// topics guess the card's topic from its question. The card always parses: a section the input
// lacks is written as a "TODO: ..." placeholder and reported, and lines that fit nowhere are
// reported and left out.
func Import(name string, src []byte, topics Topics) (md []byte, id string, problems []deck.Error) {
	im := &importer{e: errs{file: name}, topics: topics}
	im.read(src)
	c := im.unlinkCards(im.build(), src)
	im.e.list.Sort()
	return c, im.id, im.e.list
}

// plainLine is one input line with its 1-based number.
type plainLine struct {
	n    int
	text string
}

// Labels that start the sections of the plain-text form.
const (
	lblAnswer  = "answer"
	lblBasics  = "basics"
	lblSolid   = "solid answer"
	lblDeeper  = "go deeper"
	lblPitfall = "saying these in an interview costs you the question"
)

func labelOf(s string) string {
	l := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(s), ":"))
	switch l {
	case lblAnswer, lblBasics, lblSolid, lblDeeper, lblPitfall:
		return l
	case "pitfalls":
		return lblPitfall
	}
	return ""
}

type followUp struct {
	q, a string
	line int
}

type importer struct {
	e        errs
	lastLine int

	question    string
	qLine       int
	answer      []string
	basics      []string
	solid       []string
	deeper      []string
	explanation []string // markdown blocks
	followUps   []followUp
	pitfalls    []string
	timing      [3]time.Duration // basics, solid, deeper; 0 = not given
	seen        map[string]int   // label -> line

	id     string
	topics Topics
}

// segment is the lines after a label, up to the next label.
type segment struct {
	label string
	line  int
	lines []plainLine // non-blank lines, trimmed
}

func (im *importer) read(src []byte) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if !utf8.Valid(src) {
		src = bytes.ToValidUTF8(src, []byte("\uFFFD"))
	}
	var head []plainLine
	var segs []*segment
	im.seen = map[string]int{}
	for i, raw := range strings.Split(string(src), "\n") {
		n, t := i+1, strings.TrimSpace(strings.Map(dropControl, raw))
		if t == "" {
			continue
		}
		im.lastLine = n
		if l := labelOf(t); l != "" {
			if first, dup := im.seen[l]; dup {
				im.e.add(n, "second %q label (first at line %d); its lines are left out", l, first)
				segs = append(segs, &segment{label: "", line: n})
				continue
			}
			im.seen[l] = n
			segs = append(segs, &segment{label: l, line: n})
			continue
		}
		if len(segs) == 0 {
			head = append(head, plainLine{n, t})
		} else {
			s := segs[len(segs)-1]
			s.lines = append(s.lines, plainLine{n, t})
		}
	}

	if len(head) == 0 {
		im.e.add(1, "no question line before the first section label")
	} else {
		parts := make([]string, len(head))
		for i, l := range head {
			parts[i] = l.text
		}
		im.question, im.qLine = strings.Join(parts, " "), head[0].n
	}

	// The explanation and follow-ups carry no label: they follow the four "go deeper" lines, or,
	// when that label is missing, whatever the last labelled section before them holds.
	var tail []plainLine
	tailOwner := -1
	for i, s := range segs {
		if s.label == lblDeeper || (s.label != "" && s.label != lblPitfall && im.seen[lblDeeper] == 0) {
			tailOwner = i
		}
	}
	for i, s := range segs {
		lines, ownsTail := s.lines, i == tailOwner
		switch s.label {
		case lblAnswer:
			n := len(lines)
			if ownsTail {
				n = bulletRun(lines)
			}
			im.answer = bulletItems(lines[:n])
			lines = lines[n:]
		case lblBasics, lblSolid:
			n := len(lines)
			if ownsTail && n > 0 {
				n = 1
			}
			paras, d := spoken(lines[:n])
			if s.label == lblBasics {
				im.basics, im.timing[0] = paras, d
			} else {
				im.solid, im.timing[1] = paras, d
			}
			lines = lines[n:]
		case lblDeeper:
			n := 0
			for n < len(lines) && n < 4 && !strings.HasPrefix(lines[n].text, "#") && !isFollowUpLine(lines[n].text) {
				n++
			}
			for i, l := range lines[:n] {
				t := stripListMarker(l.text)
				if i == 0 {
					t, im.timing[2] = cutTiming(t)
				}
				im.deeper = append(im.deeper, t)
			}
			lines = lines[n:]
		case lblPitfall:
			im.pitfalls = bulletItems(lines)
			lines = nil
		default: // a duplicate label: its lines were reported with the label
			lines = nil
		}
		if ownsTail {
			tail = lines
		}
	}
	im.splitTail(tail)
}

// splitTail separates the explanation from the trailing run of "- question?answer" lines.
func (im *importer) splitTail(tail []plainLine) {
	k := len(tail)
	for i := len(tail) - 1; i >= 0 && isBullet(tail[i].text); i-- {
		if isFollowUpLine(tail[i].text) {
			k = i
		}
	}
	var expl []string
	for _, l := range tail[:k] {
		expl = append(expl, l.text)
	}
	im.explanation = restoreMarkdown(expl)
	for _, l := range tail[k:] {
		if !isFollowUpLine(l.text) {
			im.e.add(l.n, "cannot place %q: not a follow-up (no \"?\" ending a question), and pitfalls need their label line first", clip(l.text))
			continue
		}
		q, a := splitFollowUp(stripListMarker(l.text))
		if a == "" {
			im.e.add(l.n, "follow-up %q has no answer; wrote a TODO", clip(q))
		}
		im.followUps = append(im.followUps, followUp{q, a, l.n})
	}
}

// isFollowUpLine reports whether a line looks like "- question?answer" (or "- question?").
func isFollowUpLine(s string) bool {
	if !isBullet(s) {
		return false
	}
	q, a := splitFollowUp(stripListMarker(s))
	return a != "" || strings.HasSuffix(q, "?")
}

// splitFollowUp splits "question?answer" where the plain-text form glued the answer to the
// question. Prose puts a space after a question mark, so the split is at the first "?" directly
// followed by an upper-case letter, digit, "`" or "*"; failing that, at the first "?" directly
// followed by any character that is not a space or closing punctuation. Question marks later
// in the answer are therefore left alone.
func splitFollowUp(s string) (q, a string) {
	for pass := 0; pass < 2; pass++ {
		for i := 0; i+1 < len(s); i++ {
			if s[i] != '?' {
				continue
			}
			r, _ := utf8.DecodeRuneInString(s[i+1:])
			strong := unicode.IsUpper(r) || unicode.IsDigit(r) || r == '`' || r == '*'
			weak := !unicode.IsSpace(r) && !strings.ContainsRune("?!.,;:)]}'\"", r)
			if strong || pass == 1 && weak {
				return strings.TrimSpace(s[:i+1]), strings.TrimSpace(s[i+1:])
			}
		}
	}
	return strings.TrimSpace(s), ""
}

// spoken turns a spoken-answer section into paragraphs, taking the "~N s" target off the front.
func spoken(lines []plainLine) ([]string, time.Duration) {
	var paras []string
	var d time.Duration
	for i, l := range lines {
		t := l.text
		if i == 0 {
			t, d = cutTiming(t)
		}
		if t != "" {
			paras = append(paras, t)
		}
	}
	return paras, d
}

// cutTiming removes a leading "~20 s" or "~2 min" (the text may follow with no space).
func cutTiming(s string) (string, time.Duration) {
	if !strings.HasPrefix(s, "~") {
		return s, 0
	}
	r := strings.TrimLeft(s[1:], " ")
	j := 0
	for j < len(r) && r[j] >= '0' && r[j] <= '9' {
		j++
	}
	if j == 0 || j > 5 {
		return s, 0
	}
	n, _ := strconv.Atoi(r[:j])
	r = strings.TrimLeft(r[j:], " ")
	unit := time.Second
	switch {
	case strings.HasPrefix(r, "min"):
		r, unit = r[3:], time.Minute
	case strings.HasPrefix(r, "s"):
		r = r[1:]
	default:
		return s, 0
	}
	if n == 0 {
		return strings.TrimSpace(r), 0
	}
	return strings.TrimSpace(r), time.Duration(n) * unit
}

func isBullet(s string) bool {
	return strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "* ") || strings.HasPrefix(s, "• ")
}

// bulletRun is the number of leading bullet lines.
func bulletRun(lines []plainLine) int {
	n := 0
	for n < len(lines) && isBullet(lines[n].text) {
		n++
	}
	return n
}

// bulletItems takes one item per line; a line without a marker is still an item.
func bulletItems(lines []plainLine) []string {
	var out []string
	for _, l := range lines {
		if t := stripListMarker(l.text); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// stripListMarker removes a leading "- ", "* ", "• " or "1. " marker.
func stripListMarker(s string) string {
	if isBullet(s) {
		_, rest, _ := strings.Cut(s, " ")
		return strings.TrimSpace(rest)
	}
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j > 0 && j < len(s)-1 && (s[j] == '.' || s[j] == ')') && s[j+1] == ' ' {
		return strings.TrimSpace(s[j+2:])
	}
	return s
}

func dropControl(r rune) rune {
	if r == '\t' {
		return ' '
	}
	if unicode.IsControl(r) {
		return -1
	}
	return r
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= 60 {
		return s
	}
	r := []rune(s)
	return string(r[:57]) + "..."
}

// build writes the markdown card, with TODO placeholders for missing sections.
func (im *importer) build() []byte {
	missing := func(label, what string) {
		im.e.add(im.expectedLine(label), "no %s; wrote a TODO placeholder", what)
	}
	q := im.question
	if q == "" {
		q = "TODO: the question"
	}
	im.id = importID(q)
	topic := im.topics.Guess(q)

	var b strings.Builder
	b.WriteString("---\n")
	fmt.Fprintf(&b, "id: %s\n", yamlID(im.id))
	fmt.Fprintf(&b, "question: %s\n", strconv.Quote(q))
	fmt.Fprintf(&b, "topic: %s\n", strconv.Quote(topic))
	b.WriteString("tags: [imported]\n")
	var tm []string
	for i, k := range []string{"basics", "solid", "deeper"} {
		if d := im.timing[i]; d > 0 {
			tm = append(tm, k+": "+fmtDuration(d))
		}
	}
	if len(tm) > 0 {
		fmt.Fprintf(&b, "timing: {%s}\n", strings.Join(tm, ", "))
	}
	b.WriteString("---\n")

	section := func(name string) { fmt.Fprintf(&b, "\n## %s\n\n", name) }

	section("Answer")
	if len(im.answer) == 0 {
		missing(lblAnswer, "answer bullets")
		im.answer = []string{"TODO: the cheat-sheet bullets"}
	}
	for _, a := range im.answer {
		fmt.Fprintf(&b, "- %s\n", escapeLeading(a))
	}

	section("Basics")
	if len(im.basics) == 0 {
		missing(lblBasics, "basics answer")
		im.basics = []string{"TODO: the ≈20 s spoken answer"}
	}
	writeParas(&b, im.basics)

	section("Solid answer")
	if len(im.solid) == 0 {
		missing(lblSolid, "solid answer")
		im.solid = []string{"TODO: the ≈40 s spoken answer"}
	}
	writeParas(&b, im.solid)

	section("Go deeper")
	if len(im.deeper) < 4 {
		im.e.add(im.expectedLine(lblDeeper), "\"go deeper\" has %d of 4 levels; wrote TODOs for the rest", len(im.deeper))
	}
	for i := 0; i < 4; i++ {
		t := fmt.Sprintf("TODO: expectation level %d", i+1)
		if i < len(im.deeper) && im.deeper[i] != "" {
			t = im.deeper[i]
		}
		fmt.Fprintf(&b, "%d. %s\n", i+1, escapeLeading(t))
	}

	section("Explanation")
	if len(im.explanation) == 0 {
		missing(lblPitfall, "explanation")
		im.explanation = []string{"TODO: the explanation"}
	}
	b.WriteString(strings.Join(im.explanation, "\n\n"))
	b.WriteString("\n")

	section("Follow-ups")
	if len(im.followUps) == 0 {
		missing(lblPitfall, "follow-ups")
		im.followUps = []followUp{{q: "TODO: a follow-up question?"}}
	}
	for i, f := range im.followUps {
		if i > 0 {
			b.WriteString("\n")
		}
		if f.a == "" {
			f.a = "TODO: the answer"
		}
		fmt.Fprintf(&b, "### %s\n\n%s\n", headingText(f.q), escapeLeading(f.a))
	}

	section("Pitfalls")
	if len(im.pitfalls) == 0 {
		missing(lblPitfall, "pitfalls")
		im.pitfalls = []string{"TODO: what costs you the question"}
	}
	for _, p := range im.pitfalls {
		fmt.Fprintf(&b, "- %s\n", escapeLeading(p))
	}
	return []byte(b.String())
}

// expectedLine is where a missing section was due: its label's line if present, else the line
// of the next label in the plain-text order, else the last line.
func (im *importer) expectedLine(label string) int {
	order := []string{lblAnswer, lblBasics, lblSolid, lblDeeper, lblPitfall}
	found := false
	for _, l := range order {
		found = found || l == label
		if n := im.seen[l]; found && n > 0 {
			return n
		}
	}
	return max(im.lastLine, 1)
}

// yamlID quotes an id that YAML would otherwise read as a number, boolean or null.
func yamlID(id string) string {
	if _, err := strconv.ParseFloat(id, 64); err == nil {
		return strconv.Quote(id)
	}
	switch id {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n", "inf", "nan":
		return strconv.Quote(id)
	}
	return id
}

func writeParas(b *strings.Builder, paras []string) {
	for i, p := range paras {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(escapeLeading(p))
		b.WriteString("\n")
	}
}

func fmtDuration(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return fmt.Sprintf("%ds", d/time.Second)
}

// escapeLeading backslash-escapes the first character of s when markdown would read it as
// block syntax at the start of a line (heading, quote, list, thematic break, fence, HTML block,
// link definition), so imported text stays a plain paragraph or list item and cannot swallow the
// sections after it. Inline markup such as **bold** or `code` is left alone.
func escapeLeading(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	c, rest := s[0], s[1:]
	spaceOrEnd := rest == "" || rest[0] == ' '
	esc := false
	switch {
	case c == '#':
		n := len(s) - len(strings.TrimLeft(s, "#"))
		esc = n <= 6 && (n == len(s) || s[n] == ' ')
	case c == '>':
		esc = true
	case c == '-' || c == '+' || c == '*' || c == '_' || c == '=':
		esc = c != '_' && c != '=' && spaceOrEnd || strings.Trim(s, string(c)+" ") == ""
	case c == '`' || c == '~':
		esc = strings.HasPrefix(s, strings.Repeat(string(c), 3))
	case c == '<':
		r, _ := utf8.DecodeRuneInString(rest)
		esc = unicode.IsLetter(r) || r == '/' || r == '!' || r == '?'
	case c == '[':
		esc = strings.Contains(s, "]:")
	case c >= '0' && c <= '9':
		j := 0
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j <= 9 && j < len(s) && (s[j] == '.' || s[j] == ')') && (j+1 == len(s) || s[j+1] == ' ') {
			return s[:j] + `\` + s[j:]
		}
	}
	if esc {
		return `\` + s
	}
	return s
}

// headingText keeps a follow-up question on one heading line: escaping a leading marker and
// trailing hashes, which an ATX heading would otherwise drop.
func headingText(s string) string {
	s = escapeLeading(s)
	if strings.HasSuffix(s, "#") {
		s = strings.TrimRight(s, "#") + `\#`
	}
	return s
}

// stopWords are left out of imported ids so they name the subject rather than the phrasing.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"on": true, "for": true, "with": true, "is": true, "are": true, "was": true, "be": true,
	"what": true, "why": true, "how": true, "when": true, "which": true, "who": true, "does": true,
	"do": true, "did": true, "can": true, "should": true, "would": true, "could": true, "you": true, "your": true, "it": true, "its": true,
	"explain": true, "describe": true, "difference": true, "between": true, "vs": true, "versus": true,
	"about": true, "there": true, "this": true, "that": true, "from": true, "by": true, "as": true,
}

// importID derives a slug from the question: its first six words that are not stop words.
func importID(q string) string {
	var words []string
	for _, w := range strings.Split(deck.Slugify(q), "-") {
		if w != "" && !stopWords[w] {
			words = append(words, w)
		}
		if len(words) == 6 {
			break
		}
	}
	if len(words) == 0 {
		return "imported-card"
	}
	return strings.Join(words, "-")
}
