package interview

import (
	"math"
	"sort"
	"strings"

	"github.com/rehearse/rehearse/internal/deck"
)

// The coverage heuristic, as the review page explains it:
//
//   - The key points of a question are the cheat-sheet bullets its chosen depth asks for: all
//     of them for "go deeper"; for basics and solid, those the tier's model answer itself makes
//     (by the rule below), and at least the two it comes closest to.
//   - A bullet's key words are its words of 4+ letters that are not common words, plus
//     technical names with digits, dots or hyphens ("max.poll.interval.ms", "KIP-429").
//     Inflections meet ("revokes", "revoked") and so do synonyms ("drop" and "remove",
//     "second" and "2"); a name of several parts ("JoinGroup", "KIP-429") matches with its parts
//     close together in any order ("second bounce" makes "Bounce 2").
//   - Words found in half or more of a card's bullets ("member", "eager") are context: they are
//     shown but do not count towards the half.
//   - A point is made when the answer holds at least half of its distinctive key words (at
//     least one, two when it has three or more, never more than four); or two thirds of all its key
//     words, context words included, one of them distinctive; or when the bullet opens with a
//     short label ("Bounce 2: ...") and the answer holds the label plus one more key word.
//   - A pitfall's telltale is the quoted phrase of its wrong claim when it has one of two or
//     more words; otherwise the distinctive words of the wrong claim (the text before its first
//     colon, without a leading "Saying", "Claiming"...). It is flagged when one sentence of the
//     answer holds the quoted phrase, or at least 60 % of the words and at least three (all of
//     them when there are fewer), and that sentence agrees with the claim in negation (both or
//     neither say "not", "never", "no"...). Pitfalls about leaving something out
//     ("Forgetting ...") cannot be seen in an answer and are never flagged.

// Term is one key word: the canon words it is matched by (several for "kip-429") and the word
// as written in the card.
type Term struct {
	Words   []string
	Surface string
}

func (t Term) String() string { return t.Surface }

// Check is what the heuristic found in one answer.
type Check struct {
	Points   []int // indexes of the bullets this depth asks for, in card order
	Bullets  []BulletCheck
	Pitfalls []PitfallCheck
}

// BulletCheck explains one answer bullet.
type BulletCheck struct {
	Terms   []string // key words as written in the card
	Matched []string // the ones found in the answer
	Need    int      // matches required
	Label   string   // the bullet's opening label, "" when it has none
	// LabelMade: the answer holds the label (and one more key word suffices).
	LabelMade bool
	Covered   bool
}

// PitfallCheck explains one pitfall.
type PitfallCheck struct {
	Telltale []string // quoted phrase or distinctive words
	Matched  []string
	Flagged  bool
}

// Covered returns the indexes of the key points made.
func (c Check) Covered() []int {
	var out []int
	for _, i := range c.Points {
		if c.Bullets[i].Covered {
			out = append(out, i)
		}
	}
	return out
}

// Flagged returns the indexes of flagged pitfalls.
func (c Check) Flagged() []int {
	var out []int
	for i, p := range c.Pitfalls {
		if p.Flagged {
			out = append(out, i)
		}
	}
	return out
}

// TierText is the model answer of a depth: the basics or solid paragraph, or the deeper levels.
func TierText(c *deck.Card, depth string) string {
	switch depth {
	case "basics":
		return c.Basics.Text()
	case "solid":
		return c.Solid.Text()
	}
	var parts []string
	for _, b := range c.Deeper {
		parts = append(parts, b.Text())
	}
	return strings.Join(parts, "\n")
}

// Points returns the indexes of c's bullets that depth asks for (see the heuristic above).
func Points(c *deck.Card, depth string) []int {
	n := len(c.Answer)
	if depth != "basics" && depth != "solid" {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	tier, common := TierText(c, depth), commonTerms(c)
	type scored struct {
		i       int
		covered bool
		frac    float64
	}
	all := make([]scored, n)
	for i, b := range c.Answer {
		bc := checkBullet(b.Text(), tier, common)
		all[i] = scored{i, bc.Covered, float64(len(bc.Matched)) / float64(max(len(bc.Terms), 1))}
	}
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].covered != all[b].covered {
			return all[a].covered
		}
		return all[a].frac > all[b].frac
	})
	var out []int
	for k, s := range all {
		if s.covered || k < min(2, n) {
			out = append(out, s.i)
		}
	}
	sort.Ints(out)
	return out
}

// CheckAnswer runs the heuristic for a card, at a depth, against an answer's text.
func CheckAnswer(c *deck.Card, depth, answer string) Check {
	out := Check{Points: Points(c, depth)}
	common := commonTerms(c)
	for _, b := range c.Answer {
		out.Bullets = append(out.Bullets, checkBullet(b.Text(), answer, common))
	}
	for _, p := range c.Pitfalls {
		out.Pitfalls = append(out.Pitfalls, CheckPitfall(p.Text(), answer))
	}
	return out
}

// maxLabelWords bounds what counts as a bullet's opening label.
const maxLabelWords = 4

// commonTerms are the key words found in half or more of a card's bullets (when it has three
// or more): words like "member" or "eager" that every answer on the topic uses, which say
// nothing about which point was made.
func commonTerms(c *deck.Card) map[string]bool {
	if len(c.Answer) < 3 {
		return nil
	}
	count := map[string]int{}
	for _, b := range c.Answer {
		for _, t := range KeyTerms(b.Text()) {
			count[t.key()]++
		}
	}
	out := map[string]bool{}
	for k, n := range count {
		if 2*n >= len(c.Answer) {
			out[k] = true
		}
	}
	return out
}

// CheckBullet applies the point rule to one bullet on its own (no card context).
func CheckBullet(bullet, answer string) BulletCheck { return checkBullet(bullet, answer, nil) }

func checkBullet(bullet, answer string, common map[string]bool) BulletCheck {
	terms := KeyTerms(bullet)
	ws := canons(answer)
	var bc BulletCheck
	distinct, matchedDistinct := 0, 0
	for _, t := range terms {
		bc.Terms = append(bc.Terms, t.Surface)
		hit := near(ws, t.Words)
		if hit {
			bc.Matched = append(bc.Matched, t.Surface)
		}
		if !common[t.key()] {
			distinct++
			if hit {
				matchedDistinct++
			}
		}
	}
	if distinct == 0 { // every word is common: judge on all of them
		distinct, matchedDistinct = len(terms), len(bc.Matched)
	}
	need := max(int(math.Ceil(float64(distinct)/2)), 1)
	if distinct >= 3 {
		need = max(need, 2)
	}
	bc.Need = min(need, 4)
	if label, _, ok := strings.Cut(bullet, ": "); ok && len(rawTokens(label)) <= maxLabelWords {
		if lw := labelWords(label); len(lw) > 0 {
			bc.Label = strings.TrimSpace(label)
			bc.LabelMade = near(ws, lw)
		}
	}
	inLabel := 0 // matched key words that are part of the label
	if bc.LabelMade {
		lw := labelWords(bc.Label)
		for _, t := range terms {
			if near(ws, t.Words) && near(lw, t.Words) {
				inLabel++
			}
		}
	}
	// Two thirds of all key words, context words included, with at least one distinctive one: an
	// answer naming most of a point in the topic's common words has made it.
	most := matchedDistinct >= 1 && 3*len(bc.Matched) >= 2*len(terms) && len(bc.Matched) >= bc.Need
	bc.Covered = len(terms) > 0 && (matchedDistinct >= bc.Need || most || (bc.LabelMade && len(bc.Matched) > inLabel))
	return bc
}

// labelWords are a label's canon words without common words; short words count here ("Bounce 2").
func labelWords(label string) []string {
	var out []string
	for _, w := range wordsOf(label) {
		if !stopWords[w.surface] && !shortWords[w.surface] {
			out = append(out, w.canon)
		}
	}
	return out
}

// shortWords are words under four letters that carry no meaning in a label.
var shortWords = map[string]bool{"a": true, "an": true, "the": true, "of": true, "to": true, "in": true,
	"on": true, "and": true, "or": true, "is": true, "it": true, "for": true, "by": true, "at": true}

// KeyTerms derives a text's key words, without duplicates, in order of appearance.
func KeyTerms(text string) []Term { return keyTerms(text, true) }

func (t Term) key() string { return strings.Join(t.Words, " ") }

// keyTerms derives key words, with synonyms merged when syn is set.
func keyTerms(text string, syn bool) []Term {
	norm := func(w string) string {
		if syn {
			return synonym(w)
		}
		return w
	}
	var out []Term
	seen := map[string]bool{}
	for _, tok := range rawTokens(text) {
		var t Term
		if strings.ContainsAny(tok, "0123456789.-") && !stopWords[tok] {
			for _, p := range splitTechnical(tok) {
				t.Words = append(t.Words, norm(p))
			}
		} else if len([]rune(tok)) >= 4 && !stopWords[tok] {
			t.Words = []string{norm(stem(tok))}
		}
		t.Surface = tok
		if len(t.Words) == 0 || seen[t.key()] {
			continue
		}
		seen[t.key()] = true
		out = append(out, t)
	}
	return out
}
