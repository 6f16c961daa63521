package hear

import (
	"strconv"
	"strings"

	"github.com/rehearse/rehearse/internal/interview"
)

// The recogniser only knows words, so digits in a card ("KIP-848", "3.1") are given to it as
// the words a speaker says, and the words it hears are turned back into digits before the key
// points are matched ("eight forty eight" → "848").

var ones = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}

var tens = []string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

// numberWords says a run of digits the ways a speaker might: "848" is "eight hundred forty
// eight" and "eight forty eight"; long runs digit by digit. Every way is returned, so the
// language model knows each.
func numberWords(digits string) [][]string {
	n, err := strconv.Atoi(digits)
	if err != nil || len(digits) > 4 || (len(digits) > 1 && digits[0] == '0') {
		var out []string
		for _, d := range digits {
			out = append(out, ones[d-'0'])
		}
		return [][]string{out}
	}
	ways := [][]string{below1000(n % 10000)}
	if n >= 1000 {
		ways = [][]string{append(append(below1000(n/1000), "thousand"), below1000OrEmpty(n%1000)...)}
	}
	if n >= 100 && n < 10000 && n%100 != 0 { // "eight forty eight", "twenty nineteen"
		ways = append(ways, append(below100(n/100), below100Pair(n%100)...))
	}
	return ways
}

func below1000OrEmpty(n int) []string {
	if n == 0 {
		return nil
	}
	return below1000(n)
}

func below1000(n int) []string {
	if n < 100 {
		return below100(n)
	}
	out := append(below100(n/100), "hundred")
	if n%100 != 0 {
		out = append(out, below100(n%100)...)
	}
	return out
}

func below100(n int) []string {
	if n < 20 {
		return []string{ones[n]}
	}
	if n%10 == 0 {
		return []string{tens[n/10]}
	}
	return []string{tens[n/10], ones[n%10]}
}

// below100Pair is the second half of "eight oh five" or "eight forty eight".
func below100Pair(n int) []string {
	if n < 10 {
		return []string{"oh", ones[n]}
	}
	return below100(n)
}

var wordValue = func() map[string]int {
	m := map[string]int{"oh": 0}
	for i, w := range ones {
		m[w] = i
	}
	for i, w := range tens {
		if w != "" {
			m[w] = i * 10
		}
	}
	return m
}()

// digitsOf turns runs of number words in a transcript back into digits: "kip eight forty eight"
// becomes "kip 848", "three point one" becomes "3.1". Other words pass unchanged.
func digitsOf(words []string) []string {
	var out []string
	for i := 0; i < len(words); {
		n, used := readNumber(words[i:])
		if used == 0 {
			out = append(out, words[i])
			i++
			continue
		}
		s := strconv.Itoa(n)
		i += used
		// "three point one" → "3.1"
		if i+1 < len(words) && words[i] == "point" {
			if d, ok := wordValue[words[i+1]]; ok && d < 10 {
				s += "." + strconv.Itoa(d)
				i += 2
			}
		}
		out = append(out, s)
	}
	return out
}

// readNumber reads one spoken number from the start of ws: "eight hundred forty eight", "eight
// forty eight", "two thousand", "twenty nineteen". It returns the value and the words used (0
// when ws does not start with a number word).
func readNumber(ws []string) (int, int) {
	group := func(ws []string) (int, int) { // below 100: "forty eight", "seven", "twelve"
		if len(ws) == 0 {
			return 0, 0
		}
		v, ok := wordValue[ws[0]]
		if !ok || ws[0] == "oh" {
			return 0, 0
		}
		if v >= 20 && v%10 == 0 && len(ws) > 1 {
			if u, ok := wordValue[ws[1]]; ok && u > 0 && u < 10 && ws[1] != "oh" {
				return v + u, 2
			}
		}
		return v, 1
	}
	v, used := group(ws)
	if used == 0 {
		return 0, 0
	}
	rest := ws[used:]
	if len(rest) > 0 && rest[0] == "thousand" {
		v *= 1000
		used++
		rest = ws[used:]
		if len(rest) > 0 && rest[0] == "and" {
			rest = rest[1:]
		}
		h, u := hundreds(rest, group)
		if u > 0 {
			v += h
			used = len(ws) - len(rest) + u
		}
		return v, used
	}
	if len(rest) > 0 && rest[0] == "hundred" {
		v *= 100
		used++
		rest = ws[used:]
		skip := 0
		if len(rest) > 0 && rest[0] == "and" {
			skip = 1
		}
		if t, u := group(rest[skip:]); u > 0 && t < 100 {
			v += t
			used += skip + u
		}
		return v, used
	}
	// "eight forty eight", "eight oh five", "twenty nineteen": two groups side by side
	if v > 0 && v < 100 && len(rest) > 0 {
		if rest[0] == "oh" && len(rest) > 1 {
			if u, ok := wordValue[rest[1]]; ok && u > 0 && u < 10 {
				return v*100 + u, used + 2
			}
		}
		if t, u := group(rest); u > 0 && t >= 10 && (v < 10 || v >= 10) {
			return v*100 + t, used + u
		}
	}
	return v, used
}

// hundreds reads "eight hundred forty eight" or "forty eight" (after "thousand").
func hundreds(ws []string, group func([]string) (int, int)) (int, int) {
	v, used := group(ws)
	if used == 0 {
		return 0, 0
	}
	if used < len(ws) && ws[used] == "hundred" {
		v *= 100
		used++
		if t, u := group(ws[used:]); u > 0 {
			v += t
			used += u
		}
	}
	return v, used
}

// spokenTokens splits text into the lower-case words a speaker says: camel case and names with
// dots, hyphens or underscores come apart ("max.poll.interval.ms" is "max poll interval ms"),
// and digits become number words (each way of saying them when alt is set, else the first).
func spokenTokens(text string, alt bool) [][]string {
	var out [][]string
	for _, sentence := range interview.SplitSentences(text, ":()") {
		var ws []string
		var extra [][]string
		for _, f := range strings.FieldsFunc(splitCamel(sentence), func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '\'')
		}) {
			f = strings.ToLower(strings.Trim(f, "'"))
			if f == "" {
				continue
			}
			for _, p := range splitDigits(f) {
				if p[0] >= '0' && p[0] <= '9' {
					ways := numberWords(p)
					ws = append(ws, ways[0]...)
					if alt {
						extra = append(extra, ways[1:]...)
					}
					continue
				}
				ws = append(ws, p)
			}
		}
		if len(ws) > 0 {
			out = append(out, ws)
		}
		out = append(out, extra...)
	}
	return out
}

// splitDigits separates letters from digits: "kip848" → "kip", "848".
func splitDigits(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if isDigit(s[i]) != isDigit(s[i-1]) {
			out = append(out, s[start:i])
			start = i
		}
	}
	return append(out, s[start:])
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
