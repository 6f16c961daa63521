package importer

import (
	"flag"
	"github.com/rehearse/rehearse/internal/deck"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

var update = flag.Bool("update", false, "rewrite the importer's golden files")

// importFixture imports testdata/import/NAME.txt and parses the result, which must be valid.
func importFixture(t *testing.T, name string) (*deck.Card, string, []deck.Error, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "import", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	md, id, problems := Import(name+".txt", src, testTopics)
	c, errs := deck.Parse(id+".md", md)
	if errs != nil {
		t.Fatalf("imported card does not parse:\n%v\n\n%s", errs, md)
	}
	if c.ID != id {
		t.Errorf("front matter id %q, returned id %q", c.ID, id)
	}
	return c, id, problems, md
}

func TestImportComplete(t *testing.T) {
	c, id, problems, md := importFixture(t, "complete")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	golden := filepath.Join("testdata", "import", "complete.md")
	if *update {
		if err := os.WriteFile(golden, md, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(md) != string(want) {
		t.Errorf("output differs from %s (run with -update to accept):\n%s", golden, md)
	}
	if id != "static-membership-change-consumer-restarts" {
		t.Errorf("id = %q", id)
	}
	if c.Topic != "Static membership" || c.Question != "What does static membership change about consumer restarts?" {
		t.Errorf("topic %q question %q", c.Topic, c.Question)
	}
	if c.Timing.Basics != 20*time.Second || c.Timing.Solid != 40*time.Second {
		t.Errorf("timing = %+v", c.Timing)
	}
	if len(c.Answer) != 4 || len(c.Pitfalls) != 2 || len(c.FollowUps) != 2 {
		t.Errorf("answer %d, pitfalls %d, follow-ups %d", len(c.Answer), len(c.Pitfalls), len(c.FollowUps))
	}
	if !strings.HasPrefix(c.Basics.Text(), "With static membership each consumer") {
		t.Errorf("timing prefix not removed: %q", c.Basics.Text())
	}
	// Headings restored and demoted; inline lists restored.
	for _, want := range []string{
		`<h3 id="card-what-changes">What changes</h3>`,
		"<ol>\n<li>The consumer shuts down without a LeaveGroup request.</li>",
		`<h3 id="card-costs">Costs</h3>`,
		"<li>Two processes configured with one id fence each other.</li>\n</ul>",
		`<h3 id="card-when-to-use-it">When to use it</h3>`,
		"<p>Rolling restarts of long-lived consumers",
	} {
		if !strings.Contains(string(c.Explanation.HTML()), want) {
			t.Errorf("explanation lacks %q:\n%s", want, c.Explanation.HTML())
		}
	}
}

func TestImportOtherTimings(t *testing.T) {
	c, _, problems, _ := importFixture(t, "timings")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if c.Timing != (deck.Timing{Basics: 30 * time.Second, Solid: 60 * time.Second, Deeper: 2 * time.Minute}) {
		t.Errorf("timing = %+v", c.Timing)
	}
	if c.Deeper[0].Text() != "Knows to commit in the revoke callback." {
		t.Errorf("deeper[0] = %q", c.Deeper[0].Text())
	}
	if c.Topic != "Consumer callbacks and offsets" {
		t.Errorf("topic = %q", c.Topic)
	}
}

func TestImportFollowUpsWithQuestionMarks(t *testing.T) {
	c, _, problems, _ := importFixture(t, "questionmarks")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	want := []struct{ q, a string }{
		{"Is a long rebalance always a storm?", "No. Ask yourself: does it repeat? If it happens once, it is just slow. Why? Because a storm needs repeated triggers."},
		{"Can cooperative rebalancing hide a storm?", "Partly, yes? It keeps most partitions processing"},
		{"What does it mean if p99 latency rises?", "Latency alone says little (is it the broker? the consumer?); check"},
		{"Which setting makes a member static?", "group.instance.id, and does it need to be unique? Yes, within the group."},
	}
	if !strings.Contains(string(c.Explanation.HTML()), `<h3 id="card-signals">Signals</h3>
<p>Watch the generation id`) {
		t.Errorf("one-word heading not split from its sentence:\n%s", c.Explanation.HTML())
	}
	if len(c.FollowUps) != len(want) {
		t.Fatalf("got %d follow-ups: %+v", len(c.FollowUps), c.FollowUps)
	}
	for i, w := range want {
		f := c.FollowUps[i]
		if f.Question != w.q || !strings.HasPrefix(f.Answer.Text(), w.a) {
			t.Errorf("follow-up %d: got %q / %q", i, f.Question, f.Answer.Text())
		}
	}
}

func TestImportMissingSections(t *testing.T) {
	c, _, problems, md := importFixture(t, "missing")
	want := []string{
		`missing.txt:5: no basics answer; wrote a TODO placeholder`,
		`missing.txt:7: "go deeper" has 3 of 4 levels; wrote TODOs for the rest`,
		`missing.txt:11: no explanation; wrote a TODO placeholder`,
		`missing.txt:11: no pitfalls; wrote a TODO placeholder`,
	}
	assertErrors(t, problems, want)
	if c.Basics.Text() != "TODO: the ≈20 s spoken answer" || c.Deeper[3].Text() != "TODO: expectation level 4" ||
		c.Explanation.Text() != "TODO: the explanation" || c.Pitfalls[0].Text() != "TODO: what costs you the question" {
		t.Errorf("placeholders missing:\n%s", md)
	}
	if len(c.FollowUps) != 1 || !strings.HasPrefix(c.FollowUps[0].Answer.Text(), "No, being leader") {
		t.Errorf("follow-ups = %+v", c.FollowUps)
	}
}

func TestImportPitfallsAbsent(t *testing.T) {
	c, _, problems, _ := importFixture(t, "nopitfalls")
	assertErrors(t, problems, []string{`nopitfalls.txt:15: no pitfalls; wrote a TODO placeholder`})
	if c.Explanation.Text() != "The generation acts as a fencing token for the group." || len(c.FollowUps) != 1 {
		t.Errorf("explanation %q, follow-ups %+v", c.Explanation.Text(), c.FollowUps)
	}
}

func TestImportExtraBlankLines(t *testing.T) {
	c, id, problems, _ := importFixture(t, "blanklines")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if id != "max-poll-interval-ms-protect-against" || len(c.Answer) != 2 || len(c.Pitfalls) != 1 || len(c.FollowUps) != 1 {
		t.Errorf("id %q answer %d pitfalls %d follow-ups %d", id, len(c.Answer), len(c.Pitfalls), len(c.FollowUps))
	}
	if c.Deeper[3].Text() != "Restructures processing so a slow record cannot stall the whole group." {
		t.Errorf("deeper = %+v", c.Deeper)
	}
}

func TestImportReportsUnplaceableLines(t *testing.T) {
	src := "Why?\nanswer\n- a\nbasics\n~20 sB.\nsolid answer\n~40 sS.\ngo deeper\n1\n2\n3\n4\nText.\n- Q?A.\n- stray bullet\n"
	md, _, problems := Import("x.txt", []byte(src), testTopics)
	assertErrors(t, problems, []string{
		`x.txt:15: cannot place "- stray bullet"`,
		`x.txt:15: no pitfalls; wrote a TODO placeholder`,
	})
	if _, errs := deck.Parse("x.md", md); errs != nil {
		t.Errorf("output does not parse: %v", errs)
	}
}

func TestEscapeLeading(t *testing.T) {
	for in, want := range map[string]string{
		"## not a heading": `\## not a heading`,
		"#hashtag":         "#hashtag",
		"- dash":           `\- dash`,
		"-1 degrees":       "-1 degrees",
		"**bold** start":   "**bold** start",
		"`code` start":     "`code` start",
		"```fence":         "\\```fence",
		"1. first":         `1\. first`,
		"1.5 seconds":      "1.5 seconds",
		"<script>":         `\<script>`,
		"<= 5":             "<= 5",
		"[x]: /url":        `\[x]: /url`,
		"---":              `\---`,
		"> quote":          `\> quote`,
	} {
		if got := escapeLeading(in); got != want {
			t.Errorf("escapeLeading(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitFollowUp(t *testing.T) {
	for _, tt := range []struct{ in, q, a string }{
		{"Why?Because.", "Why?", "Because."},
		{"Why? Really?No.", "Why? Really?", "No."},
		{"Which one?`acks=all`, always.", "Which one?", "`acks=all`, always."},
		{"Which one?the first one. Why? Speed.", "Which one?", "the first one. Why? Speed."},
		{"No answer here?", "No answer here?", ""},
	} {
		if q, a := splitFollowUp(tt.in); q != tt.q || a != tt.a {
			t.Errorf("splitFollowUp(%q) = %q, %q", tt.in, q, a)
		}
	}
}

// testTopics is the bundled deck's rule file, so fixtures get the topics the deck uses.
var testTopics = func() Topics {
	b, err := os.ReadFile("../../content/import-topics.txt")
	if err != nil {
		panic(err)
	}
	ts, err := ParseTopics("import-topics.txt", string(b))
	if err != nil {
		panic(err)
	}
	return ts
}()

func TestParseTopicsReportsLines(t *testing.T) {
	_, err := ParseTopics("t.txt", "# c\na|b: A\nno colon here\n: Empty words\n")
	assertErrors(t, err.(deck.ErrorList), []string{"t.txt:3: want", "t.txt:4: no words"})
	ts, err := ParseTopics("t.txt", "Foo | bar baz : Topic F\n")
	if err != nil || ts.Guess("what about BAR BAZ?") != "Topic F" || ts.Guess("other") != FallbackTopic {
		t.Errorf("rules %+v err %v", ts, err)
	}
}

func assertErrors(t *testing.T, errs []deck.Error, want []string) {
	t.Helper()
	if len(errs) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(errs), len(want), errs)
	}
	for i, e := range errs {
		if !strings.HasPrefix(e.Error(), want[i]) {
			t.Errorf("error %d:\n got  %s\n want %s...", i, e.Error(), want[i])
		}
	}
}

// A heading that runs into bold text keeps the bold out of the heading, and a list whose items
// end without a full stop still becomes one bullet per item.
func TestImportHeadingWithEmphasisAndUnpunctuatedList(t *testing.T) {
	c, _, problems, md := importFixture(t, "long-solid")
	if len(problems) != 0 {
		t.Errorf("problems: %v", problems)
	}
	if strings.Contains(string(md), "### The fix **") {
		t.Errorf("heading swallowed the opening of the bold text:\n%s", md)
	}
	html := string(c.Explanation.HTML())
	for _, want := range []string{
		`<h3 id="card-the-fix">The fix</h3>`,
		"<p><strong>KIP-415 — Incremental Cooperative Rebalancing (2.3)</strong> Under the new protocol",
		"<li>Workers report what they run</li>\n<li>The leader computes the target</li>\n<li>Only moving work is revoked</li>\n<li>A follow-up round assigns it</li>",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("explanation lacks %q:\n%s", want, html)
		}
	}
}

func TestRestoreKeepsDashesInProse(t *testing.T) {
	got := strings.Join(restoreMarkdown([]string{"- One item - then a dash - and more words"}), "\n\n")
	if got != "- One item - then a dash - and more words" {
		t.Errorf("got %q", got)
	}
}

// A link to another card cannot be checked without the deck, so it becomes text (and a problem):
// the imported card never fails `rehearse check` for a dead link.
func TestImportUnlinksCardLinks(t *testing.T) {
	src := "What is x?\nanswer\n- a\nbasics\n~20 sBasic.\nsolid answer\n~40 sSolid.\ngo deeper\none\ntwo\nthree\nfour\n" +
		"## Heading See [the other card](/cards/nope) for more.\n- Why?Because.\nsaying these in an interview costs you the question\n- bad\n"
	md, id, problems := Import("x.txt", []byte(src), testTopics)
	if strings.Contains(string(md), "](/cards/") || !strings.Contains(string(md), "See the other card (/cards/nope) for more.") {
		t.Errorf("link kept:\n%s", md)
	}
	if len(problems) != 1 || problems[0].Line != 13 || !strings.Contains(problems[0].Msg, "/cards/nope") {
		t.Errorf("problems = %v", problems)
	}
	if _, err := deck.Load(fstest.MapFS{id + ".md": {Data: md}}, deck.Options{}); err != nil {
		t.Errorf("the deck refuses the card: %v", err)
	}
}
