package deck

import (
	"fmt"
	"time"
	"unicode"
	"unicode/utf8"
)

// The spoken answers (Basics, Solid answer) are practised against a clock, so a loaded deck
// checks that each fits its card's timing target and holds nothing that reads badly aloud.
// Parse leaves this to Load: a card that runs long is well-formed, just not ready for the clock
// (an imported card, say, parses first and is shortened after), so only a strict load refuses it.
const (
	// SpeakingWPM is the speaking rate the timing targets assume: an unhurried interview pace.
	SpeakingWPM = 150
	// lengthSlackPercent is how far over its target a spoken answer may run before it is an error.
	lengthSlackPercent = 10
)

// SpokenWords counts the words of a spoken answer's plain text: tokens holding a letter or a
// digit, so a dash between clauses is not a word but "45" and "KIP-848" are.
func SpokenWords(text string) int { return spokenWords([]byte(text)) }

// spokenWords is SpokenWords over bytes, in one pass: a word ends at white space (as
// strings.Fields splits) and counts if a letter or digit came before its end.
func spokenWords(b []byte) int {
	n, counted := 0, false
	for i := 0; i < len(b); {
		r, size := rune(b[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
		}
		i += size
		if unicode.IsSpace(r) {
			counted = false
			continue
		}
		if !counted && (r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') ||
			r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))) {
			n, counted = n+1, true
		}
	}
	return n
}

// SpokenDuration is how long words take to say at SpeakingWPM.
func SpokenDuration(words int) time.Duration {
	return time.Duration(words) * time.Minute / SpeakingWPM
}

// maxSpokenWords is the most words that fit target with the allowed slack.
func maxSpokenWords(target time.Duration) int {
	return int(target * SpeakingWPM * (100 + lengthSlackPercent) / (100 * time.Minute))
}

// SpokenProblems lists what makes c's spoken answers unready for the clock: too long, or holding
// code. A strict load refuses such a card; any other load warns.
func SpokenProblems(c *Card) ErrorList { return checkSpoken(c) }

// checkSpoken reports each spoken section of c that runs more than lengthSlackPercent over its
// target, or holds code (a config or class name in backticks): those belong in the Answer and
// Explanation. Plain text is not policed beyond its length, so imported cards still load.
func checkSpoken(c *Card) ErrorList {
	var out ErrorList
	for i, s := range []struct {
		name   string
		target time.Duration
	}{{SectionNames[secBasics], c.Timing.Basics}, {SectionNames[secSolid], c.Timing.Solid}} {
		add := func(format string, args ...any) {
			out = append(out, Error{File: c.File, Line: c.spokenLine[i], Msg: fmt.Sprintf("section %q ", s.name) + fmt.Sprintf(format, args...)})
		}
		if words, most := c.spokenWords[i], maxSpokenWords(s.target); words > most {
			add("runs %d words, about %s at %d words a minute: more than %d%% over its %s target (at most %d words); shorten it",
				words, SpokenDuration(words).Round(time.Second), SpeakingWPM, lengthSlackPercent, s.target, most)
		}
		for _, code := range c.spokenCode[i] {
			add("holds code %q, which reads badly aloud: say it in words and keep the name in the Answer or Explanation", code)
		}
	}
	return out
}
