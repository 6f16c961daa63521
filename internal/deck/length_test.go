package deck

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"
)

// words returns n words separated by spaces.
func words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = "word"
	}
	return strings.Join(w, " ")
}

func TestSpokenWords(t *testing.T) {
	for text, want := range map[string]int{
		"":                                  0,
		"one two  three":                    3,
		"a rebalance — then another - done": 5,
		"KIP-848 made 45 s the default.":    6,
		"line one\nline two":                4,
	} {
		if got := SpokenWords(text); got != want {
			t.Errorf("SpokenWords(%q) = %d, want %d", text, got, want)
		}
	}
	if d := SpokenDuration(150); d != time.Minute {
		t.Errorf("150 words = %s, want 1m", d)
	}
}

func TestMaxSpokenWords(t *testing.T) {
	// 150 words a minute plus 10%: 20 s holds 50 words, so 55 pass and 56 fail.
	for target, want := range map[time.Duration]int{20 * time.Second: 55, 40 * time.Second: 110, 25 * time.Second: 68} {
		if got := maxSpokenWords(target); got != want {
			t.Errorf("maxSpokenWords(%s) = %d, want %d", target, got, want)
		}
	}
}

func TestSpokenLengthCheck(t *testing.T) {
	basicsAt := "f.md:12: "
	solidAt := "f.md:16: "
	tests := []struct {
		name     string
		old, new string // edits applied to baseCard
		want     []string
	}{
		{"basics at the limit", "Basics text.", words(55), nil},
		{"basics over the default 20s", "Basics text.", words(56), []string{
			basicsAt + `section "Basics" runs 56 words, about 22s at 150 words a minute: more than 10% over its 20s target (at most 55 words)`}},
		{"solid over, split over paragraphs", "Solid text.", words(60) + "\n\n" + words(51), []string{
			solidAt + `section "Solid answer" runs 111 words, about 44s`}},
		{"longer target honoured", "Solid text.", words(160), []string{
			solidAt + `section "Solid answer" runs 160 words, about 1m4s at 150 words a minute: more than 10% over its 40s target (at most 110 words)`}},
		{"code span", "Basics text.", "Raise `max.poll.interval.ms` a little,\nnot `poll()`.", []string{
			basicsAt + `section "Basics" holds code "max.poll.interval.ms", which reads badly aloud`,
			basicsAt + `section "Basics" holds code "poll()", which reads badly aloud`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(baseCard, tt.old) {
				t.Fatalf("edit target %q not in base card", tt.old)
			}
			src := strings.Replace(baseCard, tt.old, tt.new, 1)
			if _, errs := Parse("f.md", []byte(src)); errs != nil {
				t.Fatalf("a long card is still well-formed, but Parse says:\n%v", errs)
			}
			assertLoadErrors(t, src, tt.want)
		})
	}
	// The target is the card's own: 160 words fit 60s plus 10% (165 words).
	long := strings.Replace(baseCard, "Solid text.", words(160), 1)
	assertLoadErrors(t, strings.Replace(long, "topic: Testing\n", "topic: Testing\ntiming: {solid: 60s}\n", 1), nil)
}

// assertLoadErrors loads a deck holding src as f.md and checks its errors against want.
func assertLoadErrors(t *testing.T, src string, want []string) {
	t.Helper()
	fsys := mapFS(map[string]string{"f.md": src})
	// A non-strict load keeps the card and reports the same problems as warnings.
	lax, err := Load(fsys, Options{})
	if err != nil {
		t.Fatalf("a non-strict load refused the card:\n%v", err)
	}
	if len(want) == 0 && len(lax.Warnings) > 0 {
		t.Fatalf("unexpected warnings:\n%v", lax.Warnings)
	}
	if len(want) > 0 {
		if lax.Len() != 1 {
			t.Fatalf("non-strict load has %d cards, want 1", lax.Len())
		}
		assertErrors(t, lax.Warnings, want)
	}
	d, err := Load(fsys, Options{Strict: true})
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("unexpected errors:\n%v", err)
		}
		return
	}
	if d != nil {
		t.Error("deck returned along with errors")
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("got %v, want an ErrorList", err)
	}
	assertErrors(t, list, want)
}

// FuzzSpokenWords holds the one-pass count to its definition: fields (strings.Fields) holding
// a letter or a digit.
func FuzzSpokenWords(f *testing.F) {
	for _, s := range []string{"", "a b", "— x\u00a0y\u2003z", "\xff\xfe ab", "KIP-848 45 s", "日本 語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := 0
		for _, w := range strings.Fields(s) {
			if strings.IndexFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
				want++
			}
		}
		if got := SpokenWords(s); got != want {
			t.Fatalf("SpokenWords(%q) = %d, want %d", s, got, want)
		}
	})
}
