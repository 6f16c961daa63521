package hear

import (
	"slices"
	"strings"
	"testing"
)

// Spoken numbers come back as digits, so "kip sixty two" meets the card's "KIP-62".
func TestDigitsOf(t *testing.T) {
	cases := map[string]string{
		"kip eight forty eight":                  "kip 848",
		"kip eight hundred and forty eight":      "kip 848",
		"since three point one":                  "since 3.1",
		"five minutes by default":                "5 minutes by default",
		"version zero point ten":                 "version 0 point 10", // one digit after "point", as in versions
		"two thousand twenty four":               "2024",
		"kip four twenty nine and kip sixty two": "kip 429 and kip 62",
		"no numbers here":                        "no numbers here",
	}
	for in, want := range cases {
		if got := strings.Join(digitsOf(strings.Fields(in)), " "); got != want {
			t.Errorf("digitsOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every way numberWords says a number reads back as that number.
func TestNumberWordsRoundTrip(t *testing.T) {
	for _, n := range []string{"0", "7", "13", "40", "62", "100", "429", "848", "1000", "2024", "3000"} {
		for _, way := range numberWords(n) {
			if got := digitsOf(way); !slices.Equal(got, []string{n}) {
				t.Errorf("%s said as %q reads back as %q", n, way, got)
			}
		}
	}
}

// The check on a perfect transcript: a card's own answer makes its points, another card's
// answer none of them.
func TestCheckTranscripts(t *testing.T) {
	for i, m := range measured {
		c := card(t, m.id)
		own := Check(c, "solid", strings.Join(flatten(spokenTokens(c.Solid.Text(), false)), " "))
		if own.Heard() != len(own.KeyPoints) {
			t.Errorf("%s: own answer made %d of %d points", m.id, own.Heard(), len(own.KeyPoints))
		}
		other := card(t, measured[(i+1)%len(measured)].id)
		if got := Check(c, "solid", strings.Join(flatten(spokenTokens(other.Solid.Text(), false)), " ")); got.Heard() != 0 {
			t.Errorf("%s: %s's answer made %d points", m.id, other.ID, got.Heard())
		}
	}
}

// Dotted names said in parts, with or without "dot" or "point", meet the card's whole name;
// a name missing a part does not.
func TestCheckDottedNames(t *testing.T) {
	c := card(t, "max-poll-interval")
	if got := joinedNames(c, strings.Fields("added in zero point ten point one by kip sixty two")); !strings.Contains(got, "0.10.1") {
		t.Errorf("joinedNames = %q, want 0.10.1", got)
	}
	if !containsRun(strings.Fields("raise max dot poll dot interval dot ms"), []string{"max", "poll", "interval", "ms"}) {
		t.Error("a dotted name said with dots was not found")
	}
	if containsRun(strings.Fields("the max poll interval"), []string{"max", "poll", "interval", "ms"}) {
		t.Error("a name missing its last part was found")
	}
}

func flatten(ss [][]string) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s...)
	}
	return out
}
