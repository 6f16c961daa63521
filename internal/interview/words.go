package interview

import (
	"slices"
	"strings"
	"unicode"
)

// word is one normalised word of a text: canon is what matching compares (inflection folded,
// synonyms merged), surface is the word as written, which is all the pages ever show.
type word struct{ canon, surface string }

// synonymGroups are words and phrases an answer may use for the same idea; the first of each
// group is the name they are compared under. Ordinals and number words meet their digits, so
// "a second bounce" makes the point "Bounce 2".
var synonymGroups = [][]string{
	{"1", "first"}, {"2", "two", "second", "twice"}, {"3", "three", "third"},
	{"4", "four", "fourth"}, {"5", "five", "fifth"},
	{"remove", "drop", "delete", "take out", "get rid of"},
	{"stop", "pause", "halt", "freeze", "idle"},
	{"revoke", "give up", "release", "relinquish", "surrender"},
	{"restart", "bounce", "reboot", "redeploy", "roll"},
	{"rejoin", "join again", "re-join"},
	{"slow", "slowest", "slower"},
	{"fast", "quick", "quickly", "faster", "fastest"},
	{"assignment", "allocation"},
	{"member", "consumer", "client", "instance"},
	{"leave", "depart", "exit"},
	{"timeout", "time out", "expire", "expiry"},
	{"heartbeat", "heart beat"},
	{"coordinator", "broker coordinator", "group coordinator"},
	{"upside", "advantage", "benefit"},
}

// synonyms maps a normalised phrase (canon words joined by spaces) to its group's name.
var synonyms = func() map[string]string {
	m := map[string]string{}
	for _, g := range synonymGroups {
		name := strings.Join(plainCanons(g[0]), " ")
		for _, p := range g {
			m[strings.Join(plainCanons(p), " ")] = name
		}
	}
	return m
}()

// maxSynonymWords is the longest phrase in synonymGroups.
const maxSynonymWords = 3

// plainCanons normalises text without merging synonyms (used to build the table).
func plainCanons(text string) []string {
	var out []string
	for _, tok := range rawTokens(text) {
		out = append(out, splitTechnical(tok)...)
	}
	return out
}

// wordsOf turns text into normalised words, merging synonym phrases longest first.
func wordsOf(text string) []word {
	var ws []word
	for _, tok := range rawTokens(text) {
		for _, p := range splitTechnical(tok) {
			ws = append(ws, word{canon: p, surface: tok})
		}
	}
	var out []word
	for i := 0; i < len(ws); {
		n := 1
		w := ws[i]
		for k := min(maxSynonymWords, len(ws)-i); k >= 1; k-- {
			parts := make([]string, k)
			for j := range k {
				parts[j] = ws[i+j].canon
			}
			if name, ok := synonyms[strings.Join(parts, " ")]; ok {
				n, w = k, word{canon: name, surface: ws[i].surface}
				break
			}
		}
		out = append(out, w)
		i += n
	}
	return out
}

// canons is the canon words of text.
func canons(text string) []string {
	ws := wordsOf(text)
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.canon
	}
	return out
}

// synonym is the group name of one normalised word ("second" → "2"), or the word itself.
func synonym(canon string) string {
	if name, ok := synonyms[canon]; ok {
		return name
	}
	return canon
}

// near reports whether every word of phrase occurs within a window of len(phrase)+3 words of
// ws, in any order: "second bounce" makes "bounce 2", "stop the whole world" makes "stop world".
func near(ws []string, phrase []string) bool {
	if len(phrase) == 0 {
		return false
	}
	win := len(phrase) + 3
	for i := range ws {
		if !slices.Contains(phrase, ws[i]) {
			continue
		}
		lo, hi := max(0, i-win+1), min(len(ws), i+win)
		ok := true
		for _, p := range phrase {
			if !slices.Contains(ws[lo:hi], p) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// rawTokens splits on anything but letters, digits, dots, hyphens and underscores, trims
// sentence punctuation from the ends and lower-cases.
func rawTokens(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(splitCamel(text)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '-' && r != '_'
	}) {
		if f = strings.Trim(f, ".-_"); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// splitCamel puts a hyphen inside camel-case names, so "JoinGroup" is matched by "join ... group".
func splitCamel(text string) string {
	rs := []rune(text)
	var b strings.Builder
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) {
			b.WriteRune('-')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// splitTechnical splits a token on hyphens, so "kip-429" matches "KIP 429" too; dotted names
// stay whole, and plain words have their inflection folded.
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

// SplitSentences splits at sentence ends (., !, ? followed by space or end), semicolons, line
// breaks and any rune in more; dots inside names such as "session.timeout.ms" do not split.
func SplitSentences(text, more string) []string {
	var out []string
	start := 0
	rs := []rune(text)
	for i, r := range rs {
		end := r == '\n' || r == '!' || r == '?' || r == ';' || strings.ContainsRune(more, r) ||
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
		would your yours yourself instead rather still really means mean used uses using ones e.g i.e etc`) {
		m[w] = true
	}
	return m
}()

// SynonymPhrases lists every word and phrase of the synonym groups, for a recogniser that must
// be able to hear each of them.
func SynonymPhrases() []string {
	var out []string
	for _, g := range synonymGroups {
		out = append(out, g...)
	}
	return out
}
