package editor

import (
	"sort"
	"strings"
	"unicode"

	"github.com/rehearse/rehearse/internal/deck"
)

// SimilarThreshold is the Jaccard similarity of question trigrams above which a new question
// is flagged as close to an existing one. On the bundled deck a question padded with other words
// scores about 0.8 against itself, and the closest two different questions score 0.52.
const SimilarThreshold = 0.55

// Match is an existing card whose question resembles another.
type Match struct {
	Card  *deck.Card
	Score float64 // Jaccard similarity of the two questions' trigram sets, 0..1
}

// Similar returns the cards (other than exceptID) whose question is close to q, best first.
func Similar(d *deck.Deck, q, exceptID string) []Match {
	qs := trigrams(q)
	var out []Match
	for _, c := range d.Cards {
		if c.ID == exceptID {
			continue
		}
		if s := jaccard(qs, trigrams(c.Question)); s >= SimilarThreshold {
			out = append(out, Match{c, s})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// stopWords carry a question's form, not its subject ("when would you use X instead of Y"),
// so they are left out of the comparison.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true, "on": true,
	"for": true, "with": true, "is": true, "are": true, "be": true, "it": true, "its": true, "do": true, "does": true,
	"what": true, "when": true, "why": true, "how": true, "which": true, "who": true, "would": true, "could": true,
	"should": true, "can": true, "you": true, "your": true, "use": true, "instead": true, "one": true, "give": true,
	"up": true, "at": true, "by": true, "from": true, "that": true, "this": true, "vs": true, "between": true,
}

// trigrams returns the set of 3-letter windows of s's words other than stop words (lower case,
// letters and digits, each word padded so short words count too).
func trigrams(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if stopWords[w] {
			continue
		}
		r := []rune(" " + w + " ")
		for i := 0; i+3 <= len(r); i++ {
			set[string(r[i:i+3])] = true
		}
	}
	return set
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
