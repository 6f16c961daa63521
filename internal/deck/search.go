package deck

import (
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Search fields, in ranking order: a card whose question holds every query word outranks one
// whose answer does, and so on.
var searchFields = [...]string{"question", "answer", "basics", "solid", "explanation"}

// Span is a piece of displayed text; Match marks a query word, for highlighting. Text is plain
// (unescaped): the view escapes it.
type Span struct {
	Text  string
	Match bool
}

// Hit is one search result.
type Hit struct {
	Card     *Card
	Field    string // where every word was found: "question", "answer", "basics", "solid", "explanation", or "" when spread over several
	Question []Span // the card's question with the query words marked
	// Snippet is the text around the first match outside the question, cut at word boundaries,
	// with the words marked; nil when no other field holds a query word (the question, shown
	// above it, is never repeated here).
	Snippet []Span
}

// searchIndex is a cardIndex per card, parallel to Deck.Cards, built on the first search: it
// is a lower-cased copy of most of the deck's text, neither needed nor kept before someone searches.
type searchIndex struct {
	once sync.Once
	ix   []cardIndex
}

func (d *Deck) searchIndex() []cardIndex {
	d.indexes.once.Do(func() {
		d.indexes.ix = make([]cardIndex, len(d.Cards))
		for i, c := range d.Cards {
			d.indexes.ix[i] = newCardIndex(c)
		}
	})
	return d.indexes.ix
}

// cardIndex holds a card's searchable text, lower-cased once. The original text is not
// copied: the card holds it, and only a hit's snippet needs it (fieldText).
type cardIndex struct {
	lower [len(searchFields)]string
}

func newCardIndex(c *Card) cardIndex {
	var ix cardIndex
	for f := range searchFields {
		ix.lower[f] = strings.ToLower(fieldText(c, f))
	}
	return ix
}

// fieldText is the original text of search field f of c.
func fieldText(c *Card, f int) string {
	switch f {
	case 0:
		return c.Question
	case 1:
		answers := make([]string, len(c.Answer))
		for i, a := range c.Answer {
			answers[i] = a.Text()
		}
		return strings.Join(answers, "\n")
	case 2:
		return c.Basics.Text()
	case 3:
		return c.Solid.Text()
	default:
		return c.Explanation.Text()
	}
}

// Search returns cards containing every word of q (case-insensitive) in their question, answer
// bullets, basics, solid answer or explanation. Cards where one field holds all the words rank by
// that field (question first); cards matching only across fields come last; ties keep deck
// order. limit <= 0 means no limit.
func (d *Deck) Search(q string, limit int) []Hit {
	words := queryWords(q)
	if len(words) == 0 {
		return nil
	}
	// Rank every card first, and cut snippets only for the hits shown: a common word can
	// match most of the deck.
	type scored struct{ i, rank int }
	var found []scored
	ixs := d.searchIndex()
	for i := range ixs {
		if rank, ok := rankCard(&ixs[i], words); ok {
			found = append(found, scored{i, rank})
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].rank < found[j].rank })
	if limit > 0 && len(found) > limit {
		found = found[:limit]
	}
	hits := make([]Hit, len(found))
	for k, s := range found {
		ix, c := &ixs[s.i], d.Cards[s.i]
		h := Hit{Card: c, Question: marked(c.Question, ix.lower[0], words)}
		if s.rank < len(searchFields) {
			h.Field = searchFields[s.rank]
		}
		// The snippet comes from the field that ranked the card, else from the first field
		// after the question that holds any of the words.
		for _, f := range snippetOrder(s.rank) {
			if w, ok := firstWord(ix.lower[f], words); ok {
				h.Snippet = snippet(fieldText(c, f), ix.lower[f], w, words)
				break
			}
		}
		hits[k] = h
	}
	return hits
}

// snippetOrder lists the fields a snippet may come from, best first: never the question.
func snippetOrder(rank int) []int {
	order := make([]int, 0, len(searchFields))
	if rank > 0 && rank < len(searchFields) {
		order = append(order, rank)
	}
	for f := 1; f < len(searchFields); f++ {
		if f != rank {
			order = append(order, f)
		}
	}
	return order
}

// queryWords lower-cases q and splits it into words, dropping duplicates.
func queryWords(q string) []string {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(q)) {
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	return words
}

// rankCard returns the first field holding every word, len(searchFields) when the words are
// only found across several fields, and false when some word is nowhere.
func rankCard(ix *cardIndex, words []string) (int, bool) {
	for _, w := range words {
		if !slices.ContainsFunc(ix.lower[:], func(l string) bool { return strings.Contains(l, w) }) {
			return 0, false
		}
	}
	for f, l := range ix.lower {
		if containsAll(l, words) {
			return f, true
		}
	}
	return len(searchFields), true
}

func containsAll(s string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}

// firstWord returns the query word occurring earliest in lower.
func firstWord(lower string, words []string) (string, bool) {
	best, at := "", -1
	for _, w := range words {
		if i := strings.Index(lower, w); i >= 0 && (at < 0 || i < at) {
			best, at = w, i
		}
	}
	return best, at >= 0
}

// snippetRadius is about how many bytes of context a snippet shows on each side of the match.
const snippetRadius = 60

// snippet cuts the text around the first occurrence of word at word boundaries, with ellipses
// where it was cut, and marks every query word in it.
func snippet(orig, lower, word string, words []string) []Span {
	src := orig
	if len(orig) != len(lower) { // lower-casing changed byte lengths; offsets only fit lower
		src = lower
	}
	i := max(strings.Index(lower, word), 0)
	start, end := max(i-snippetRadius, 0), min(i+len(word)+snippetRadius, len(src))
	// Widen to whole words: back to the start of the word cut at start, on to the end of the
	// word cut at end (a word longer than the radius is shown whole).
	for start > 0 && !isSpaceBefore(src, start) {
		start--
	}
	for end < len(src) && !isSpaceAt(src, end) {
		end++
	}
	cut, cutLower := squeeze(src[start:end]), squeeze(lower[start:end])
	spans := marked(cut, cutLower, words)
	if start > 0 {
		spans = append([]Span{{Text: "…"}}, spans...)
	}
	if end < len(src) {
		spans = append(spans, Span{Text: "…"})
	}
	return spans
}

// squeeze trims s and folds each run of ASCII white space (line breaks between bullets, say)
// into one space. ASCII bytes never occur inside a multi-byte rune, so a text and its lower-cased
// copy of the same length squeeze to strings that still line up byte for byte.
func squeeze(s string) string {
	var b strings.Builder
	space := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ', '\n', '\t', '\r':
			space = b.Len() > 0
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isSpaceBefore reports whether the rune just before byte offset i is white space.
func isSpaceBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsSpace(r)
}

// isSpaceAt reports whether the rune at byte offset i is white space.
func isSpaceAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r)
}

// marked splits text into spans, marking each occurrence of a query word. lower must be text
// lower-cased with the same byte offsets (when they differ, lower itself is shown).
func marked(text, lower string, words []string) []Span {
	if len(text) != len(lower) {
		text = lower
	}
	var spans []Span
	last := 0
	for pos := 0; pos < len(lower); {
		best, bestAt := "", -1
		for _, w := range words {
			if j := strings.Index(lower[pos:], w); j >= 0 && (bestAt < 0 || j < bestAt || (j == bestAt && len(w) > len(best))) {
				best, bestAt = w, j
			}
		}
		if bestAt < 0 {
			break
		}
		at := pos + bestAt
		if at > last {
			spans = append(spans, Span{Text: text[last:at]})
		}
		spans = append(spans, Span{Text: text[at : at+len(best)], Match: true})
		last, pos = at+len(best), at+len(best)
	}
	if last < len(text) {
		spans = append(spans, Span{Text: text[last:]})
	}
	return spans
}
