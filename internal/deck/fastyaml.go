package deck

import (
	"bytes"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Front matter is YAML, but nearly every card writes the same few shapes: "key: text",
// "key: [a, b]", and one level of indented keys under timing and simulation. A YAML parser was
// a fifth of loading a large deck, so fastFrontMatter reads that plain subset directly. It
// gives up (returns false, leaving c alone) on anything outside it and on anything that would be
// an error; parseFrontMatter then runs the YAML parser, which gives the same fields on the subset
// (TestFastFrontMatterAgrees) and the full, located errors otherwise. So the subset is kept
// narrow: text that YAML could read as anything but a string is left to YAML.

// fmFields is what the front matter sets on a card, filled before any of it is applied.
type fmFields struct {
	id, question, topic string
	idLine              int
	tags                []string
	timing              Timing
	sim                 *Simulation
}

// fastFrontMatter fills c's front-matter fields from src (the YAML between the "---" lines, whose
// first line is file line offset) when src is in the plain subset, and reports whether it did.
func fastFrontMatter(src []byte, offset int, c *Card) bool {
	f := fmFields{timing: Timing{DefaultBasics, DefaultSolid, DefaultDeeper}}
	var seen [6]bool // frontMatterKeys
	lines := splitLines(src)
	for i := 0; i < len(lines); i++ {
		key, val, ok := fmKeyLine(lines[i], 0)
		if !ok {
			return false
		}
		k := fmKeyIndex(key)
		if k < 0 || seen[k] {
			return false
		}
		seen[k] = true
		line := offset + i
		switch key {
		case "id":
			s, ok := plainOrQuoted(val)
			if !ok || !validSlug(s) {
				return false
			}
			f.id, f.idLine = s, line
		case "question":
			if f.question, ok = plainOrQuoted(val); !ok {
				return false
			}
		case "topic":
			if f.topic, ok = plainOrQuoted(val); !ok {
				return false
			}
		case "tags":
			items, ok := flowWords(val)
			if !ok {
				return false
			}
			for _, t := range items {
				if !validTag(t) {
					return false
				}
			}
			f.tags = items
		case "timing":
			var pairs [][2][]byte
			if len(val) > 0 {
				if pairs, ok = flowPairs(val); !ok {
					return false
				}
			} else if pairs, i, ok = blockPairs(lines, i); !ok {
				return false
			}
			if !setTiming(pairs, &f.timing) {
				return false
			}
		case "simulation":
			var pairs [][2][]byte
			if len(val) > 0 {
				return false
			}
			if pairs, i, ok = blockPairs(lines, i); !ok {
				return false
			}
			if f.sim = fastSimulation(pairs, line); f.sim == nil {
				return false
			}
		}
	}
	if !seen[0] || !seen[1] || !seen[2] {
		return false
	}
	c.ID, c.idLine, c.Question, c.Topic, c.Tags, c.Timing, c.Sim = f.id, f.idLine, f.question, f.topic, f.tags, f.timing, f.sim
	return true
}

func fmKeyIndex(key string) int {
	for i, k := range frontMatterKeys {
		if k == key {
			return i
		}
	}
	return -1
}

// splitLines splits src at newlines, without a last empty line for a final newline.
func splitLines(src []byte) [][]byte {
	lines := bytes.Split(src, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	return lines
}

// fmKeyLine splits "key: value" indented by exactly indent spaces; the key is lower-case
// letters and underscores. value is "" for "key:" with nothing after it.
func fmKeyLine(l []byte, indent int) (key string, val []byte, ok bool) {
	if len(l) <= indent || !allSpaces(l[:indent]) {
		return "", nil, false
	}
	l = l[indent:]
	n := 0
	for n < len(l) && (l[n] >= 'a' && l[n] <= 'z' || l[n] == '_') {
		n++
	}
	if n == 0 || n == len(l) || l[n] != ':' {
		return "", nil, false
	}
	rest := l[n+1:]
	if len(rest) > 0 && rest[0] != ' ' {
		return "", nil, false
	}
	return string(l[:n]), bytes.TrimRight(bytes.TrimLeft(rest, " "), " "), true
}

func allSpaces(b []byte) bool {
	for _, c := range b {
		if c != ' ' {
			return false
		}
	}
	return true
}

// blockPairs reads the "key: value" lines indented under line i (all by the first one's indent),
// returning them and the index of the last one.
func blockPairs(lines [][]byte, i int) ([][2][]byte, int, bool) {
	if i+1 >= len(lines) {
		return nil, i, false
	}
	first := lines[i+1]
	indent := len(first) - len(bytes.TrimLeft(first, " "))
	if indent == 0 {
		return nil, i, false
	}
	var out [][2][]byte
	for i+1 < len(lines) && len(lines[i+1]) > 0 && lines[i+1][0] == ' ' {
		key, val, ok := fmKeyLine(lines[i+1], indent)
		if !ok || len(val) == 0 {
			return nil, i, false
		}
		out = append(out, [2][]byte{[]byte(key), val})
		i++
	}
	return out, i, true
}

func setTiming(pairs [][2][]byte, t *Timing) bool {
	seen := map[string]bool{}
	for _, p := range pairs {
		k := string(p[0])
		dst := timingField(t, k)
		if dst == nil {
			return false
		}
		if seen[k] || !durationWord(p[1]) {
			return false
		}
		seen[k] = true
		d, err := time.ParseDuration(string(p[1]))
		if err != nil || d <= 0 {
			return false
		}
		*dst = d
	}
	return true
}

// durationWord is a plain scalar like 20s or 1m30s: digits and lower-case letters, starting with
// a digit and ending with a letter, which YAML reads as a string (never a number).
func durationWord(v []byte) bool {
	if len(v) < 2 || v[0] < '0' || v[0] > '9' || v[len(v)-1] < 'a' || v[len(v)-1] > 'z' {
		return false
	}
	for _, c := range v {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '.') {
			return false
		}
	}
	return !bytes.HasPrefix(v, []byte("0x")) && !bytes.HasPrefix(v, []byte("0o")) && !bytes.HasPrefix(v, []byte("0b"))
}

// fastSimulation builds the simulation of preset, compare and caption pairs; anything else
// (overrides, expect, an unknown key) is left to YAML.
func fastSimulation(pairs [][2][]byte, line int) *Simulation {
	sim := &Simulation{Line: line}
	var seen [3]bool // preset, caption, compare
	for _, p := range pairs {
		var k int
		switch string(p[0]) {
		case "preset":
			k = 0
		case "caption":
			k = 1
		case "compare":
			k = 2
		default:
			return nil
		}
		if seen[k] {
			return nil
		}
		seen[k] = true
		var ok bool
		switch k {
		case 0:
			sim.Preset, ok = plainOrQuoted(p[1])
		case 1:
			sim.Caption, ok = plainOrQuoted(p[1])
		case 2:
			sim.Compare, ok = flowWords(p[1])
		}
		if !ok {
			return nil
		}
	}
	if !seen[0] || !seen[1] || !seen[2] {
		return nil
	}
	return sim
}

// plainOrQuoted is the text of a scalar: "double-quoted" without escapes, 'single-quoted'
// without quotes inside, or plain text that YAML cannot read as a number, bool, null or anything
// but a string. It is never empty (an empty value is an error, left to YAML).
func plainOrQuoted(v []byte) (string, bool) {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
		q, in := v[0], v[1:len(v)-1]
		if v[len(v)-1] != q || bytes.IndexByte(in, q) >= 0 || bytes.IndexByte(in, '\\') >= 0 || !printable(in) {
			return "", false
		}
		s := strings.TrimSpace(string(in)) // as yamlString does
		return s, s != ""
	}
	if !plainScalar(v) {
		return "", false
	}
	return string(v), true
}

// plainScalar reports whether v is a plain scalar that YAML reads as this very string: it starts
// with a letter, holds no character that means anything in YAML (":", "#", flow brackets, quotes,
// anchors, tags, escapes) and is not a word YAML reads as a bool or null.
func plainScalar(v []byte) bool {
	if len(v) == 0 || !(v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z') {
		return false
	}
	for _, c := range v {
		switch c {
		case ':', '#', '{', '}', '[', ']', '"', '\'', '`', '|', '>', '&', '*', '!', '%', '@', '\\', '\t':
			return false
		}
	}
	if !printable(v) {
		return false
	}
	switch string(bytes.ToLower(v)) {
	case "true", "false", "yes", "no", "on", "off", "null", "y", "n":
		return false
	}
	return true
}

// printable reports whether b is valid UTF-8 of printable characters, none of them a line or
// byte-order mark that YAML treats specially.
func printable(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || !unicode.IsPrint(r) {
			return false
		}
		b = b[n:]
	}
	return true
}

// flowWords reads "[a, b-c, d+e]": a non-empty one-line list of plain words (a letter, then
// letters, digits, "-", "_", "." or "+").
func flowWords(v []byte) ([]string, bool) {
	if len(v) < 3 || v[0] != '[' || v[len(v)-1] != ']' {
		return nil, false
	}
	var out []string
	for item := range bytes.SplitSeq(v[1:len(v)-1], []byte(",")) {
		item = bytes.Trim(item, " ")
		if !word(item) {
			return nil, false
		}
		out = append(out, string(item))
	}
	return out, true
}

func word(w []byte) bool {
	if !plainScalar(w) {
		return false
	}
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '+') {
			return false
		}
	}
	return true
}

// flowPairs reads "{a: x, b: y}" on one line, each value a duration word.
func flowPairs(v []byte) ([][2][]byte, bool) {
	if len(v) < 2 || v[0] != '{' || v[len(v)-1] != '}' {
		return nil, false
	}
	var out [][2][]byte
	for item := range bytes.SplitSeq(v[1:len(v)-1], []byte(",")) {
		key, val, ok := fmKeyLine(bytes.Trim(item, " "), 0)
		if !ok || !durationWord(val) {
			return nil, false
		}
		out = append(out, [2][]byte{[]byte(key), val})
	}
	return out, true
}
