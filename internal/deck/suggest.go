package deck

import (
	"sort"
	"strings"
	"sync"
	"unicode"
)

// Typo tolerance for search: a query word found in no card is replaced by the deck word
// closest to it in Damerau–Levenshtein distance (an adjacent swap counts as one edit), so
// "rebalnce" finds "rebalance" and the page can ask "did you mean".

// vocabulary is every distinct word of the deck's searchable text, with how many cards use it.
// It is built on the first search that needs it, not at load.
type vocabulary struct {
	once  sync.Once
	words []vocabWord // by length, then by how many cards use it (most first), then A–Z
}

type vocabWord struct {
	text  string
	runes []rune
	cards int
}

// Words shorter than minFuzzyLen are never corrected (too many neighbours); longer query words
// are only compared with deck words of at most maxFuzzyLen runes, which bounds the work.
const (
	minFuzzyLen  = 4
	maxFuzzyLen  = 40
	maxFixedWord = 5 // query words corrected per search at most
)

func (d *Deck) vocab() []vocabWord {
	d.words.once.Do(func() {
		cards := map[string]int{}
		for _, ix := range d.searchIndex() {
			seen := map[string]bool{}
			for _, l := range ix.lower {
				for _, w := range strings.FieldsFunc(l, notWordRune) {
					if n := len([]rune(w)); n >= minFuzzyLen-1 && n <= maxFuzzyLen && !seen[w] {
						seen[w] = true
						cards[w]++
					}
				}
			}
		}
		for w, n := range cards {
			d.words.words = append(d.words.words, vocabWord{text: w, runes: []rune(w), cards: n})
		}
		sort.Slice(d.words.words, func(i, j int) bool {
			a, b := d.words.words[i], d.words.words[j]
			if len(a.runes) != len(b.runes) {
				return len(a.runes) < len(b.runes)
			}
			if a.cards != b.cards {
				return a.cards > b.cards
			}
			return a.text < b.text
		})
	})
	return d.words.words
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// Suggest returns q with each word that occurs in no card replaced by the closest deck word, and
// whether anything was replaced. Words it cannot place (too short, nothing close) stay as typed.
func (d *Deck) Suggest(q string) (string, bool) {
	words := strings.Fields(strings.ToLower(q))
	changed, fixed := false, 0
	for i, w := range words {
		if fixed == maxFixedWord {
			break
		}
		if d.occurs(w) {
			continue
		}
		fixed++
		if best, ok := d.closest(w); ok {
			words[i], changed = best, true
		}
	}
	return strings.Join(words, " "), changed
}

// occurs reports whether w is a substring of some card's searchable text.
func (d *Deck) occurs(w string) bool {
	for _, ix := range d.searchIndex() {
		for _, l := range ix.lower {
			if strings.Contains(l, w) {
				return true
			}
		}
	}
	return false
}

// closest finds the deck word nearest to w within an edit budget that grows with w's length:
// one edit up to 7 letters, two from 8. Ties go to the word more cards use.
func (d *Deck) closest(w string) (string, bool) {
	q := []rune(w)
	if len(q) < minFuzzyLen || len(q) > maxFuzzyLen {
		return "", false
	}
	budget := 1
	if len(q) >= 8 {
		budget = 2
	}
	best, bestDist, bestCards := "", budget+1, 0
	for _, v := range d.vocab() {
		if abs(len(v.runes)-len(q)) > budget {
			continue
		}
		dist := editDistance(q, v.runes, budget)
		if dist <= budget && (dist < bestDist || (dist == bestDist && v.cards > bestCards)) {
			best, bestDist, bestCards = v.text, dist, v.cards
		}
	}
	return best, best != ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// editDistance is the optimal-string-alignment distance between a and b (insertions, deletions,
// substitutions and swaps of adjacent runes), or limit+1 as soon as it must exceed limit.
func editDistance(a, b []rune, limit int) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}
