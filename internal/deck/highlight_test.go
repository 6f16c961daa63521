package deck

import (
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

func renderMarkdown(t *testing.T, src string) string {
	t.Helper()
	doc := md.Parser().Parse(text.NewReader([]byte(src)))
	h, err := blockHTML([]byte(src), []ast.Node{doc})
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}

func TestCodeBlockEscapesMarkup(t *testing.T) {
	for _, lang := range []string{"go", "html", "no-such-language", ""} {
		got := renderMarkdown(t, "```"+lang+"\nx := \"</script><b>&\"\n```\n")
		if strings.Contains(got, "</script>") || strings.Contains(got, "<b>") {
			t.Errorf("%q: markup not escaped: %s", lang, got)
		}
		if !strings.Contains(got, "&lt;/") { // the html lexer splits the tag into tokens
			t.Errorf("%q: escaped text missing: %s", lang, got)
		}
	}
}

func TestCodeBlockHighlightedOrPlain(t *testing.T) {
	got := renderMarkdown(t, "```go\nfunc main() {}\n```\n")
	if !strings.HasPrefix(got, `<pre class="chroma">`) || !strings.Contains(got, `<span class="kd">func</span>`) || strings.Contains(got, "style=") {
		t.Errorf("go block not highlighted with classes only: %s", got)
	}
	got = renderMarkdown(t, "```nolang\nplain\n```\n")
	if got != "<pre><code class=\"language-nolang\">plain\n</code></pre>\n" {
		t.Errorf("unknown language: %s", got)
	}
	// Every class a block uses must be styled by HighlightCSS.
	if css := HighlightCSS(); !strings.Contains(css, ".chroma .kd") {
		t.Errorf("HighlightCSS lacks .kd: %.200s", css)
	}
}

// In the dark theme code blocks must not keep the light background under the theme's light
// text: the stylesheet carries the dark style for a chosen dark theme and for the browser's.
func TestHighlightCSSHasBothThemes(t *testing.T) {
	css := HighlightCSS()
	light := regexp.MustCompile(`(?m)^\.chroma \{ color: (#[0-9a-f]{6}); \}$`).FindStringSubmatch(css)
	if light == nil || light[1] == "#ffffff" {
		t.Fatalf("light code blocks set no dark text colour: %v", light)
	}
	for _, scope := range []string{":root[data-theme=dark] .chroma {", ":root:not([data-theme=light]) .chroma {"} {
		i := strings.Index(css, scope)
		if i < 0 {
			t.Fatalf("no %q rule", scope)
		}
		rule := css[i : i+strings.Index(css[i:], "}")]
		if !strings.Contains(rule, "background-color: #0d1117") {
			t.Errorf("%s has no dark background: %s", scope, rule)
		}
	}
	if !strings.Contains(css, "@media (prefers-color-scheme: dark) {") {
		t.Error("no rules for a browser that prefers dark")
	}
}
