package deck

import (
	"strings"
	"testing"
)

// yamlBomb is the audit's card: nine levels of nine aliases, 9^9 values once expanded.
func yamlBomb() string {
	var b strings.Builder
	b.WriteString("  overrides:\n    l0: &l0 [x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		prev := "*l" + string(rune('0'+i-1))
		b.WriteString("    l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " [" + strings.Repeat(prev+", ", 8) + prev + "]\n")
	}
	return b.String()
}

func TestParseRefusesYAMLAliases(t *testing.T) {
	src := strings.Replace(baseCard, "topic: Testing", "topic: Testing\nsimulation:\n  preset: scale-out\n  compare: [eager]\n  caption: c\n"+yamlBomb(), 1)
	if !strings.Contains(src, "&l8") {
		t.Fatal("the bomb was not placed in the card")
	}
	_, errs := Parse("f.md", []byte(src))
	if errs == nil || !strings.Contains(errs.Error(), "aliases") {
		t.Fatalf("want an error about aliases, got %v", errs)
	}
}

func TestParseRefusesHugeFrontMatter(t *testing.T) {
	src := strings.Replace(baseCard, "topic: Testing", "topic: Testing\ntags: ["+strings.Repeat("a, ", 4000)+"a]", 1)
	_, errs := Parse("f.md", []byte(src))
	if errs == nil || !strings.Contains(errs.Error(), "the limit is 8 KiB") {
		t.Fatalf("want the front matter limit, got %v", errs)
	}
}

// A code block whose lexer backtracks badly (the audit's make block of ten thousand "(") is
// shown as plain text with a note, and the card still renders; an ordinary block is coloured.
func TestHighlightFallsBackToPlainTextWhenSlow(t *testing.T) {
	hostile := "```make\n" + strings.Repeat("(", 10000) + "\n```\n"
	plain := "```go\nfunc main() {}\n```\n"
	src := strings.Replace(baseCard, "## Explanation\n", "## Explanation\n\n"+plain+"\n"+hostile, 1)
	if src == baseCard {
		t.Fatal("no explanation section to put the code in")
	}
	c, errs := Parse("f.md", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	html := string(c.Explanation.HTML())
	if !strings.Contains(html, `<p class="code-note">Shown without highlighting`) {
		t.Errorf("no plain-text note for the hostile block:\n%.400s", html)
	}
	if !strings.Contains(html, `<span class="kd">func</span>`) && !strings.Contains(html, `class="kd"`) {
		t.Errorf("the ordinary block lost its highlighting:\n%.600s", html)
	}
}
