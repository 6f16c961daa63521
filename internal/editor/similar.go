package editor

import (
	"sort"
	"strings"
	"unicode"

	"github.com/rehearse/rehearse/internal/deck"
)

// SimilarThreshold is the Jaccard similarity of question trigrams above which a new question
// is flagged as close to an existing one. Rewordings of one question score 0.5–0.8 on the
// bundled deck's questions; different questions on the same topic stay under 0.3.
const SimilarThreshold = 0.45

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

// trigrams returns the set of 3-letter windows of s's words (lower case, letters and digits,
// each word padded so short words count too).
func trigrams(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
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
