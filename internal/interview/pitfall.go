package interview

import (
	"math"
	"slices"
	"strings"
)

// framing words that introduce a pitfall's wrong claim rather than belong to it.
var framing = map[string]bool{
	"saying": true, "claiming": true, "thinking": true, "believing": true, "assuming": true,
	"treating": true, "calling": true, "crediting": true, "describing": true, "stating": true,
	"suggesting": true, "answering": true, "confusing": true, "mixing": true, "listing": true,
	"recommending": true,
}

// omission words: the pitfall is something missing, which typed text cannot show.
var omission = map[string]bool{"forgetting": true, "ignoring": true, "omitting": true, "missing": true, "skipping": true, "leaving": true}

// CheckPitfall applies the pitfall rule to one pitfall's text.
func CheckPitfall(pitfall, typed string) PitfallCheck {
	first := strings.ToLower(strings.TrimFunc(firstField(pitfall), notWordRune))
	if omission[first] {
		return PitfallCheck{}
	}
	sentences := SplitSentences(typed, "")
	claim, _, _ := strings.Cut(pitfall, ": ")
	// A quoted phrase of one word ("sticky") would flag far too often: use terms instead.
	if phrase := plainCanons(quoted(claim)); len(phrase) >= 2 {
		pc := PitfallCheck{Telltale: []string{strings.TrimSpace(quoted(claim))}}
		for _, s := range sentences {
			if hasRun(plainCanons(s), phrase) {
				pc.Matched, pc.Flagged = pc.Telltale, true
			}
		}
		return pc
	}
	if framing[first] {
		claim = strings.TrimSpace(claim[strings.Index(claim, firstField(claim))+len(firstField(claim)):])
	}
	terms := keyTerms(claim, false)
	pc := PitfallCheck{}
	for _, t := range terms {
		pc.Telltale = append(pc.Telltale, t.Surface)
	}
	if len(terms) == 0 {
		return pc
	}
	need := max(int(math.Ceil(0.6*float64(len(terms)))), min(3, len(terms)))
	claimNeg := negated(plainCanons(claim))
	for _, s := range sentences {
		ws := plainCanons(s)
		var matched []string
		for _, t := range terms {
			if near(ws, t.Words) {
				matched = append(matched, t.Surface)
			}
		}
		if len(matched) >= need && negated(ws) == claimNeg {
			pc.Matched, pc.Flagged = matched, true
			break
		}
		if len(matched) > len(pc.Matched) {
			pc.Matched = matched
		}
	}
	return pc
}

var negations = map[string]bool{
	"not": true, "no": true, "never": true, "none": true, "nothing": true, "nobody": true,
	"without": true, "cannot": true, "isn't": true, "doesn't": true, "don't": true, "won't": true,
	"can't": true, "aren't": true, "didn't": true, "neither": true, "nor": true,
	"isn": true, "doesn": true, "don": true, "won": true, "aren": true, "didn": true, // split at the apostrophe
}

func negated(ws []string) bool {
	n := 0
	for _, w := range ws {
		if negations[w] {
			n++
		}
	}
	return n%2 == 1 // "not never" reads as a positive claim
}

// hasRun reports whether phrase's words appear consecutively in ws.
func hasRun(ws, phrase []string) bool {
	for i := 0; len(phrase) > 0 && i+len(phrase) <= len(ws); i++ {
		if slices.Equal(ws[i:i+len(phrase)], phrase) {
			return true
		}
	}
	return false
}
