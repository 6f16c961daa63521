package deck

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

var updateCSS = flag.Bool("update-css", false, "rewrite highlight.css from chroma's styles")

// highlight.css must be what chroma's styles give today (after a chroma update, go generate).
func TestHighlightCSSIsCurrent(t *testing.T) {
	want := buildHighlightCSS(t)
	if *updateCSS {
		if err := os.WriteFile("highlight.css", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if HighlightCSS() != want {
		t.Fatal("highlight.css is stale: run go generate ./internal/deck")
	}
}

// buildHighlightCSS makes highlight.css from chroma's styles.
func buildHighlightCSS(t *testing.T) string {
	codeStyle, codeStyleDark := styles.Get(highlightStyle), styles.Get(highlightStyleDark)
	var light, dark bytes.Buffer
	if err := codeFormatter.WriteCSS(&light, codeStyle); err != nil {
		t.Fatal(err)
	}
	if err := codeFormatter.WriteCSS(&dark, codeStyleDark); err != nil {
		t.Fatal(err)
	}
	{
		var b strings.Builder
		b.WriteString(light.String())
		// The light style sets no text colour, which would inherit the dark theme's light text.
		text := "#1f2328" // GitHub's own text colour, which its chroma style leaves unset
		if c := codeStyle.Get(chroma.Text).Colour; c.IsSet() {
			text = c.String()
		}
		fmt.Fprintf(&b, ".chroma { color: %s; }\n", text)
		b.WriteString(scopeCSS(dark.String(), ":root[data-theme=dark] "))
		b.WriteString("@media (prefers-color-scheme: dark) {\n")
		b.WriteString(scopeCSS(dark.String(), ":root:not([data-theme=light]) "))
		b.WriteString("}\n")
		return b.String()
	}
}

// scopeCSS puts prefix before every selector of chroma's stylesheet, one rule per line. A token
// class the dark style leaves out must not keep the light style's colour: every token first
// inherits the block's text colour.
func scopeCSS(sheet, prefix string) string {
	var b strings.Builder
	b.WriteString(prefix + ".chroma span { color: inherit; }\n")
	for line := range strings.Lines(sheet) {
		if _, rule, ok := strings.Cut(line, "*/ "); ok {
			line = rule
		}
		sel, body, ok := strings.Cut(line, "{")
		if !ok {
			continue
		}
		parts := strings.Split(strings.TrimSpace(sel), ",")
		for i, p := range parts {
			parts[i] = prefix + strings.TrimSpace(p)
		}
		b.WriteString(strings.Join(parts, ", ") + " {" + body)
	}
	return b.String()
}
