package importer

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// restoreMarkdown rebuilds block structure in explanation text whose line breaks were lost, so
// "## Heading", "- item" and "1. item" markers run inline with the prose. It returns markdown
// blocks (to be joined by blank lines). The rules, which are guesses by nature:
//
//   - a word made only of 2-6 "#" (or 1-6 at the start of a line) starts a heading, written one
//     level deeper and at least level 3, so it nests inside the Explanation section;
//   - a heading ends before a list marker, or before the first capitalised word ("The",
//     "Under") once it has two words: headings are in sentence case, text after them starts a
//     sentence; a heading that still ends up holding a sentence (". ") keeps only its first word;
//   - "-" starts a bullet and "N." the next ordered item (1 to open a list) when it opens the
//     line, directly follows a heading, or follows a word ending a sentence or clause (".", ":",
//     "!", "?"); inside a bullet, "-" before a capitalised word (or digit, code, emphasis)
//     starts the next bullet too, since list items often end without a full stop;
//   - emphasis or code ("**", "__", "`") opened in a heading and not closed there moves, with
//     the words after it, to the text below the heading;
//   - a list ends at the next heading; text after a list's last item stays in that item.
func restoreMarkdown(lines []string) []string {
	var r restorer
	for _, l := range lines {
		r.line(l)
	}
	r.flush()
	return r.out
}

type blockKind int

const (
	kPara blockKind = iota
	kHeading
	kBullet
	kOrdered
)

type restorer struct {
	out   []string
	list  []string // items of the list being built
	listK blockKind
	kind  blockKind
	level int
	words []string
	next  int // next ordered item number expected while in an ordered list
}

func (r *restorer) line(s string) {
	words := strings.Fields(s)
	r.endBlock()
	for i, w := range words {
		afterBreak := i == 0 || endsClause(words[i-1])
		if n := hashRun(w); n > 0 && (n >= 2 || i == 0) && i+1 < len(words) {
			r.endBlock()
			r.closeList()
			r.kind, r.level = kHeading, min(max(n+1, 3), 6)
			continue
		}
		if r.kind == kHeading && len(r.words) > 0 {
			switch {
			case w == "-" || r.orderedMarker(w) > 0:
				r.endBlock()
				afterBreak = true
			case len(r.words) >= 2 && titleCase(w):
				// Emphasis or code opened in the heading belongs to the text after it
				// ("## The fix **KIP-415 — Incremental ...** Under"); while it opens the
				// heading itself, the heading goes on.
				switch k := unclosedMarkup(r.words); {
				case k < 0:
					r.endBlock()
				case k > 0:
					carry := append([]string(nil), r.words[k:]...)
					r.words = r.words[:k]
					r.endBlock()
					r.words = carry
				}
			}
		}
		// In a bullet item, a "-" before a word that starts like an item (capital, digit,
		// code, emphasis, link) starts the next item even without a full stop before it.
		if w == "-" && r.kind == kBullet && len(r.words) > 0 && i+1 < len(words) && startsItem(words[i+1]) {
			afterBreak = true
		}
		if w == "-" && afterBreak && i+1 < len(words) {
			r.startItem(kBullet, 0)
			continue
		}
		if n := r.orderedMarker(w); n > 0 && afterBreak && i+1 < len(words) {
			r.startItem(kOrdered, n)
			continue
		}
		r.words = append(r.words, w)
	}
	r.endBlock()
}

// orderedMarker returns N for a word "N." that may start an item now: 1 always, or the next
// number of the ordered list in progress.
func (r *restorer) orderedMarker(w string) int {
	if !strings.HasSuffix(w, ".") {
		return 0
	}
	n, err := strconv.Atoi(strings.TrimSuffix(w, "."))
	if err != nil || n < 1 {
		return 0
	}
	if n == 1 || r.listK == kOrdered && n == r.next {
		return n
	}
	return 0
}

// startItem opens a list item; n is the ordered item's number (1 starts a new list).
func (r *restorer) startItem(k blockKind, n int) {
	r.endBlock()
	if r.listK != k || n == 1 {
		r.closeList()
	}
	r.listK, r.kind, r.next = k, k, n+1
}

// endBlock finishes the words gathered so far as a paragraph, heading or list item.
func (r *restorer) endBlock() {
	text := strings.Join(r.words, " ")
	r.words = nil
	kind := r.kind
	r.kind = kPara
	if r.listK != kPara && (kind == kBullet || kind == kOrdered) {
		if text == "" {
			return
		}
		if kind == kBullet {
			r.list = append(r.list, "- "+escapeLeading(text))
		} else {
			r.list = append(r.list, strconv.Itoa(len(r.list)+1)+". "+escapeLeading(text))
		}
		return
	}
	if text == "" {
		return
	}
	if kind == kHeading {
		r.closeList()
		var body string
		if first, rest, ok := strings.Cut(text, " "); ok && (strings.HasSuffix(text, ".") || strings.Contains(text, ". ")) {
			// A heading holding a sentence swallowed its text; a one-word heading is likelier.
			text, body = first, rest
		}
		r.out = append(r.out, strings.Repeat("#", r.level)+" "+headingText(text))
		if body != "" {
			r.out = append(r.out, escapeLeading(body))
		}
		return
	}
	r.closeList()
	r.out = append(r.out, escapeLeading(text))
}

func (r *restorer) closeList() {
	if len(r.list) > 0 {
		r.out = append(r.out, strings.Join(r.list, "\n"))
	}
	r.list, r.listK, r.next = nil, kPara, 0
}

func (r *restorer) flush() {
	r.endBlock()
	r.closeList()
}

// unclosedMarkup returns the index of the word that opened a "**", "__" or "`" still open at
// the end of words, or -1 when every one is closed.
func unclosedMarkup(words []string) int {
	open := -1
	for _, m := range []string{"**", "__", "`"} {
		at := -1
		for i, w := range words {
			if strings.Count(w, m)%2 == 1 {
				if at < 0 {
					at = i
				} else {
					at = -1
				}
			}
		}
		if at >= 0 && (open < 0 || at < open) {
			open = at
		}
	}
	return open
}

// startsItem reports whether w looks like the first word of a list item rather than the rest
// of a sentence after a dash: a capital or a digit, possibly behind code or emphasis markers.
func startsItem(w string) bool {
	w = strings.TrimLeft(w, "*_`[")
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) || unicode.IsDigit(r)
}

// hashRun returns the length of w if it is made only of 1-6 "#".
func hashRun(w string) int {
	if len(w) > 6 || strings.Trim(w, "#") != "" {
		return 0
	}
	return len(w)
}

// endsClause reports whether a word ends a sentence or clause, ignoring closing emphasis.
func endsClause(w string) bool {
	w = strings.TrimRight(w, "*_")
	if w == "" {
		return false
	}
	return strings.ContainsRune(".:!?", rune(w[len(w)-1]))
}

// titleCase reports whether w starts like a sentence: an upper-case letter followed by a
// lower-case one, or a lone "A" or "I". Acronyms ("KIP-429", "EAGER") do not count.
func titleCase(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	if !unicode.IsUpper(r) {
		return false
	}
	if n == len(w) {
		return r == 'A' || r == 'I'
	}
	r2, _ := utf8.DecodeRuneInString(w[n:])
	return unicode.IsLower(r2)
}
