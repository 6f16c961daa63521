package deck

import (
	"strings"
	"testing"
)

// plain shows spans as text with [brackets] around the marked words.
func plain(spans []Span) string {
	var b strings.Builder
	for _, s := range spans {
		if s.Match {
			b.WriteString("[" + s.Text + "]")
		} else {
			b.WriteString(s.Text)
		}
	}
	return b.String()
}

func TestSearchRanking(t *testing.T) {
	d := searchDeck(t)
	hits := d.Search("Offset  COMMIT", 0)
	var got []string
	for _, h := range hits {
		got = append(got, h.Card.ID+":"+h.Field)
	}
	if s := strings.Join(got, " "); s != "asked:question answered:answer explained:explanation spread:" {
		t.Errorf("ranking = %s", s)
	}
	// The question carries the highlights; it is never repeated as the snippet.
	if q := plain(hits[0].Question); q != "What is an [offset] [commit]?" || hits[0].Snippet != nil {
		t.Errorf("question hit: question %q, snippet %q", q, plain(hits[0].Snippet))
	}
	if s := plain(hits[1].Snippet); s != "[commit]s store the [OFFSET] two" {
		t.Errorf("answer snippet = %q", s)
	}
	// Spread over fields: the snippet shows where a word is, outside the question.
	if s := plain(hits[3].Snippet); !strings.Contains(s, "A [commit] happens.") || plain(hits[3].Question) != "[Offset]s?" {
		t.Errorf("spread hit: question %q, snippet %q", plain(hits[3].Question), s)
	}
	if n := len(d.Search("offset commit", 2)); n != 2 {
		t.Errorf("limit 2 gave %d hits", n)
	}
	if hits := d.Search("offset zebra", 0); len(hits) != 0 {
		t.Errorf("all words must match, got %d hits", len(hits))
	}
	if hits := d.Search("   ", 0); hits != nil {
		t.Errorf("blank query gave %d hits", len(hits))
	}
}

func TestSnippetWordBoundaries(t *testing.T) {
	long := strings.Repeat("alpha ", 30) + "needle " + strings.Repeat("omega ", 30)
	s := plain(snippet(long, strings.ToLower(long), "needle", []string{"needle"}))
	if !strings.HasPrefix(s, "…alpha ") || !strings.HasSuffix(s, " omega…") || !strings.Contains(s, " [needle] ") {
		t.Errorf("snippet not cut at whole words: %q", s)
	}
	for _, w := range strings.Fields(strings.Trim(s, "…")) {
		if w != "alpha" && w != "omega" && w != "[needle]" {
			t.Errorf("snippet has a cut word %q in %q", w, s)
		}
	}
	// Line breaks between bullets become single spaces; no ellipsis when nothing was cut.
	if s := plain(snippet("one\n\ntwo needle", "one\n\ntwo needle", "needle", []string{"needle", "one"})); s != "[one] two [needle]" {
		t.Errorf("short snippet = %q", s)
	}
	// Non-ASCII text keeps whole runes and highlights the match.
	text := "Größere Gruppen brauchen länger für den Rebalance und sie werden langsamer als gedacht, größtenteils"
	if s := plain(snippet(text, strings.ToLower(text), "rebalance", []string{"rebalance"})); !strings.Contains(s, "[Rebalance]") || strings.ContainsRune(s, '\uFFFD') {
		t.Errorf("unicode snippet = %q", s)
	}
}

func TestMarkedEscapesNothingAndMarksAll(t *testing.T) {
	// Marking only splits text: escaping is the view's job, so markup stays plain text here.
	text := "<b>commit</b> and Commit"
	if got := plain(marked(text, strings.ToLower(text), []string{"commit"})); got != "<b>[commit]</b> and [Commit]" {
		t.Errorf("marked = %q", got)
	}
}

func TestSuggestFixesTypos(t *testing.T) {
	fsys := mapFS(map[string]string{
		"1.md": card("one", "What triggers a rebalance?", "T", "A rebalance starts when membership changes."),
		"2.md": card("two", "What is a heartbeat?", "T", "The heartbeat thread keeps the session alive."),
	})
	d, err := Load(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"rebalnce":           "rebalance",           // a letter missing
		"rebalacne":          "rebalance",           // two letters swapped
		"hearbteat session":  "heartbeat session",   // only the unknown word changes
		"Membrship changes":  "membership changes",  // lower-cased as search is
		"rebalnce heratbeat": "rebalance heartbeat", // several words
	} {
		got, ok := d.Suggest(q)
		if !ok || got != want {
			t.Errorf("Suggest(%q) = %q, %v; want %q", q, got, ok, want)
		}
	}
	for _, q := range []string{"rebalance", "zzzzzzzz", "xyz", "heartbeat session"} {
		if got, ok := d.Suggest(q); ok {
			t.Errorf("Suggest(%q) = %q: nothing to fix", q, got)
		}
	}
	if hits := d.Search("rebalnce", 0); len(hits) != 0 {
		t.Fatalf("the typo itself matched %d cards", len(hits))
	}
	fixed, _ := d.Suggest("rebalnce")
	if hits := d.Search(fixed, 0); len(hits) != 1 || hits[0].Card.ID != "one" {
		t.Fatalf("the suggestion finds %d cards", len(hits))
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"rebalnce", "rebalance", 2, 1},
		{"rebalacne", "rebalance", 2, 1},
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 1, 2}, // stops once over the limit
		{"", "abc", 5, 3},
		{"same", "same", 0, 0},
	} {
		if got := editDistance([]rune(c.a), []rune(c.b), c.limit); got != c.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", c.a, c.b, c.limit, got, c.want)
		}
	}
}

// BenchmarkSuggest measures a two-typo correction over the 1000-card deck of BenchmarkSearch.
func BenchmarkSuggest(b *testing.B) {
	d, err := Load(benchFS(b, 1000), Options{})
	if err != nil {
		b.Fatal(err)
	}
	d.Suggest("warmup") // builds the vocabulary once
	b.ResetTimer()
	for b.Loop() {
		d.Suggest("comitt ofset")
	}
}
