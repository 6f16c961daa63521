package deck

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Search fields, in ranking order: a card whose question holds every query word outranks one
// whose answer does, and so on.
var searchFields = [...]string{"question", "answer", "basics", "solid", "explanation"}

// Hit is one search result.
type Hit struct {
	Card    *Card
	Snippet string // the question, or the text around the first match in another field
	Field   string // one of "question", "answer", "basics", "solid", "explanation"
}

// cardIndex holds a card's searchable text, lower-cased once at load. The original text is not
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
			answers[i] = a.Text
		}
		return strings.Join(answers, "\n")
	case 2:
		return c.Basics.Text
	case 3:
		return c.Solid.Text
	default:
		return c.Explanation.Text
	}
}

// Search returns cards containing every word of q (case-insensitive) in their question, answer
// bullets, basics, solid answer or explanation. Cards where one field holds all the words rank by
// that field (question first); cards matching only across fields come last; ties keep deck
// order. limit <= 0 means no limit.
func (d *Deck) Search(q string, limit int) []Hit {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil
	}
	type scored struct {
		hit  Hit
		rank int
	}
	var found []scored
	for i := range d.indexes {
		ix := &d.indexes[i]
		rank, ok := rankCard(ix, words)
		if !ok {
			continue
		}
		f := rank
		if f == len(searchFields) { // spread over fields: show where the first word is
			for f = 0; !strings.Contains(ix.lower[f], words[0]); f++ {
			}
		}
		snip := d.Cards[i].Question // a question is short enough to show whole
		if f > 0 {
			snip = snippet(fieldText(d.Cards[i], f), ix.lower[f], words[0])
		}
		found = append(found, scored{Hit{d.Cards[i], snip, searchFields[f]}, rank})
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].rank < found[j].rank })
	if limit > 0 && len(found) > limit {
		found = found[:limit]
	}
	hits := make([]Hit, len(found))
	for i, s := range found {
		hits[i] = s.hit
	}
	return hits
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

// snippetRadius is how many bytes of context a snippet shows on each side of the match.
const snippetRadius = 60

// snippet cuts the text around the first occurrence of word, on rune boundaries and with
// ellipses where it was cut.
func snippet(orig, lower, word string) string {
	src := orig
	if len(orig) != len(lower) { // lower-casing changed byte lengths; offsets only fit lower
		src = lower
	}
	i := strings.Index(lower, word)
	if i < 0 {
		i = 0
	}
	start, end := max(i-snippetRadius, 0), min(i+len(word)+snippetRadius, len(src))
	for start > 0 && !utf8.RuneStart(src[start]) {
		start--
	}
	for end < len(src) && !utf8.RuneStart(src[end]) {
		end++
	}
	s := strings.Join(strings.Fields(src[start:end]), " ")
	if start > 0 {
		s = "…" + s
	}
	if end < len(src) {
		s += "…"
	}
	return s
}
