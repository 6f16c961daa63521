package interview

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/rehearse/rehearse/internal/deck"
)

// The coverage heuristic, as the review page explains it:
//
//   - A bullet's key terms are its words of 4+ letters that are not common stop words, plus
//     technical tokens holding digits, dots or hyphens ("max.poll.interval.ms", "kip-429").
//     Words are compared after light stemming (plural -s/-es, -ing, -ed, final -e).
//   - A bullet is covered when the typed answer contains at least half of its key terms, at
//     least one, and at least two when the bullet has three or more.
//   - A pitfall's telltale is the quoted phrase of its wrong claim when it has one of two or
//     more words; otherwise the distinctive terms
//     of the wrong claim (the text before its first colon, without a leading "Saying",
//     "Claiming"...). It is flagged when one sentence of the answer holds the quoted phrase, or
//     at least 60 % of the terms and at least three (all of
//     them when there are fewer), and that sentence agrees with the claim
//     in negation (both or neither say "not", "never", "no"...). Pitfalls about leaving
//     something out ("Forgetting ...") cannot be seen in what was typed and are never flagged.

// Term is one key term: a single word, or a run of words for a hyphenated token.
type Term []string

func (t Term) String() string { return strings.Join(t, "-") }

// Check is what the heuristic found in one typed answer.
type Check struct {
	Bullets  []BulletCheck
	Pitfalls []PitfallCheck
}

// BulletCheck explains one answer bullet.
type BulletCheck struct {
	Terms   []string // key terms, for display
	Matched []string // the ones found in the answer
	Need    int      // matches required
	Covered bool
}

// PitfallCheck explains one pitfall.
type PitfallCheck struct {
	Telltale []string // quoted phrase or distinctive terms
	Matched  []string
	Flagged  bool
}

// Covered returns the indexes of covered bullets.
func (c Check) Covered() []int {
	var out []int
	for i, b := range c.Bullets {
		if b.Covered {
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

// CheckAnswer runs the heuristic for a card against a typed answer.
func CheckAnswer(c *deck.Card, typed string) Check {
	var out Check
	for _, b := range c.Answer {
		out.Bullets = append(out.Bullets, CheckBullet(b.Text, typed))
	}
	for _, p := range c.Pitfalls {
		out.Pitfalls = append(out.Pitfalls, CheckPitfall(p.Text, typed))
	}
	return out
}

// CheckBullet applies the bullet rule to one bullet's text.
func CheckBullet(bullet, typed string) BulletCheck {
	terms := KeyTerms(bullet)
	need := int(math.Ceil(float64(len(terms)) / 2))
	need = max(need, 1)
	if len(terms) >= 3 {
		need = max(need, 2)
	}
	answer := words(typed)
	bc := BulletCheck{Need: need}
	for _, t := range terms {
		bc.Terms = append(bc.Terms, t.String())
		if hasRun(answer, t) {
			bc.Matched = append(bc.Matched, t.String())
		}
	}
	bc.Covered = len(terms) > 0 && len(bc.Matched) >= need
	return bc
}

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
	sentences := splitSentences(typed)
	claim, _, _ := strings.Cut(pitfall, ": ")
	// A quoted phrase of one word ("sticky") would flag far too often: use terms instead.
	if phrase := Term(words(quoted(claim))); len(phrase) >= 2 {
		pc := PitfallCheck{Telltale: []string{strings.Join(phrase, " ")}}
		for _, s := range sentences {
			if hasRun(words(s), phrase) {
				pc.Matched, pc.Flagged = pc.Telltale, true
			}
		}
		return pc
	}
	if framing[first] {
		claim = strings.TrimSpace(claim[strings.Index(claim, firstField(claim))+len(firstField(claim)):])
	}
	terms := KeyTerms(claim)
	pc := PitfallCheck{}
	for _, t := range terms {
		pc.Telltale = append(pc.Telltale, t.String())
	}
	if len(terms) == 0 {
		return pc
	}
	need := max(int(math.Ceil(0.6*float64(len(terms)))), min(3, len(terms)))
	claimNeg := negated(words(claim))
	for _, s := range sentences {
		ws := words(s)
		var matched []string
		for _, t := range terms {
			if hasRun(ws, t) {
				matched = append(matched, t.String())
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

// KeyTerms derives a text's key terms, without duplicates, in order of appearance.
func KeyTerms(text string) []Term {
	var out []Term
	seen := map[string]bool{}
	for _, tok := range rawTokens(text) {
		var t Term
		if strings.ContainsAny(tok, "0123456789.-") {
			t = splitTechnical(tok)
		} else if len([]rune(tok)) >= 4 && !stopWords[tok] {
			t = Term{stem(tok)}
		}
		if len(t) == 0 || seen[t.String()] {
			continue
		}
		seen[t.String()] = true
		out = append(out, t)
	}
	return out
}

// words turns text into the normalised word sequence that terms are matched against.
func words(text string) []string {
	var out []string
	for _, tok := range rawTokens(text) {
		out = append(out, splitTechnical(tok)...)
	}
	return out
}

// rawTokens splits on anything but letters, digits, dots, hyphens and underscores, trims
// sentence punctuation from the ends and lower-cases.
func rawTokens(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '-' && r != '_'
	}) {
		if f = strings.Trim(f, ".-_"); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// splitTechnical splits a token on hyphens, so "kip-429" matches "KIP 429" too; dotted names
// stay whole, and plain words are stemmed.
func splitTechnical(tok string) []string {
	var out []string
	for _, p := range strings.Split(tok, "-") {
		if p == "" {
			continue
		}
		if strings.ContainsAny(p, "0123456789._") {
			out = append(out, p)
		} else {
			out = append(out, stem(p))
		}
	}
	return out
}

// hasRun reports whether t's words appear consecutively in ws.
func hasRun(ws []string, t Term) bool {
	for i := 0; len(t) > 0 && i+len(t) <= len(ws); i++ {
		if slices.Equal(ws[i:i+len(t)], t) {
			return true
		}
	}
	return false
}

// stem strips common English endings so "revokes", "revoked", "revoking" and "revoke" meet.
func stem(w string) string {
	switch {
	case len(w) >= 6 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:len(w)-3])
	case len(w) >= 5 && strings.HasSuffix(w, "ed"):
		w = undouble(w[:len(w)-2])
	case len(w) >= 5 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes") ||
		strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		w = w[:len(w)-2]
	case len(w) >= 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		w = w[:len(w)-1]
	}
	if len(w) >= 4 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble turns "stopp" (from "stopped") back into "stop".
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouslz", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
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

// splitSentences splits at sentence ends (., !, ? followed by space or end) and line breaks;
// dots inside names such as "session.timeout.ms" do not split.
func splitSentences(text string) []string {
	var out []string
	start := 0
	rs := []rune(text)
	for i, r := range rs {
		end := r == '\n' || r == '!' || r == '?' || r == ';' ||
			(r == '.' && (i+1 == len(rs) || unicode.IsSpace(rs[i+1])))
		if end {
			if s := strings.TrimSpace(string(rs[start:i])); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}

// quoted returns the first phrase in double or curly quotes, or "".
func quoted(text string) string {
	for _, q := range [][2]string{{"\"", "\""}, {"“", "”"}} {
		if _, rest, ok := strings.Cut(text, q[0]); ok {
			if in, _, ok := strings.Cut(rest, q[1]); ok && strings.TrimSpace(in) != "" {
				return in
			}
		}
	}
	return ""
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// stopWords are common words of 4+ letters that say nothing about the topic.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`about above after again against also although always among
		another anything around because been before being below between both cannot could does doing
		done down during each either else even ever every from further have having here however into
		itself just keep keeps kind less like made make makes many more most much must need needs
		never none nothing often once only onto other others ought over same should since some
		something such than that their them themselves then there these they thing things this
		those though through thus till together too under unless until upon very want wants well
		were what whatever when where whether which while whole whom whose will with within without
		would your yours yourself instead rather still really means mean used uses using`) {
		m[w] = true
	}
	return m
}()
