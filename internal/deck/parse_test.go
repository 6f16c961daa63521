package deck

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseValidCard(t *testing.T) {
	src, err := os.ReadFile("testdata/valid/kafka/eager.md")
	if err != nil {
		t.Fatal(err)
	}
	c, errs := Parse("kafka/eager.md", src)
	if errs != nil {
		t.Fatalf("unexpected errors:\n%v", errs)
	}
	if c.ID != "connect-eager-rebalancing" || c.Topic != "Kafka Connect" || c.File != "kafka/eager.md" ||
		c.Question != "What went wrong with eager rebalancing in Kafka Connect?" {
		t.Errorf("front matter: got id=%q topic=%q file=%q question=%q", c.ID, c.Topic, c.File, c.Question)
	}
	if got := strings.Join(c.Tags, ","); got != "kafka,connect,rebalancing" {
		t.Errorf("tags = %q", got)
	}
	if c.Timing != (Timing{25 * time.Second, 45 * time.Second, 2 * time.Minute}) {
		t.Errorf("timing = %+v", c.Timing)
	}
	if c.Sim == nil || c.Sim.Preset != "connect-worker-bounce" || c.Sim.Line != 7 ||
		strings.Join(c.Sim.Compare, ",") != "eager,incremental" || !strings.HasPrefix(c.Sim.Caption, "Every task") {
		t.Fatalf("simulation = %+v", c.Sim)
	}
	if m, ok := c.Sim.Overrides["members"]; !ok || m == nil {
		t.Errorf("overrides = %v", c.Sim.Overrides)
	}

	if len(c.Answer) != 2 || c.Answer[0].HTML() != "Any membership change stopped <strong>every</strong> task in the cluster" ||
		c.Answer[0].Text() != "Any membership change stopped every task in the cluster" {
		t.Errorf("answer = %+v", c.Answer)
	}
	// Raw HTML is shown as text, never passed through.
	if h := string(c.Answer[1].HTML()); strings.Contains(h, "<script") || !strings.Contains(h, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("raw inline HTML not escaped: %s", h)
	}
	ex := string(c.Explanation.HTML())
	if strings.Contains(ex, "<div") || !strings.Contains(ex, "&lt;div onclick=") {
		t.Errorf("raw HTML block not escaped: %s", ex)
	}
	if !strings.Contains(ex, `<h3 id="card-why-it-hurt">Why it hurt</h3>`) {
		t.Errorf("explanation heading lacks prefixed id: %s", ex)
	}
	if !strings.Contains(ex, `<pre class="chroma">`) || !strings.Contains(ex, `<span class="kd">class</span>`) || strings.Contains(ex, "style=") {
		t.Errorf("code block not highlighted with classes only: %s", ex)
	}
	if !strings.Contains(ex, "<table>") || !strings.Contains(ex, "<td>eager</td>") {
		t.Errorf("table not rendered: %s", ex)
	}
	if !strings.Contains(c.Explanation.Text(), "Stopping everything is expensive.") || strings.Contains(c.Explanation.Text(), "<em>") {
		t.Errorf("explanation text = %q", c.Explanation.Text())
	}
	if c.Basics.Text() != "Under eager rebalancing every worker gives up all of its connectors and tasks." {
		t.Errorf("basics = %q", c.Basics.Text())
	}
	if c.Solid.Text() != "Each worker revokes everything, rejoins, and waits for the leader.\nOnly then does work resume." {
		t.Errorf("solid = %q", c.Solid.Text())
	}
	if c.Deeper[0].Text() != "Knows that eager stops all tasks." || c.Deeper[3].Text() != "Designs around it with KIP-415 settings." {
		t.Errorf("deeper = %+v", c.Deeper)
	}
	if len(c.FollowUps) != 2 || c.FollowUps[1].Question != "Is there a delay?" ||
		!strings.Contains(string(c.FollowUps[1].Answer.HTML()), "<code>scheduled.rebalance.max.delay.ms</code>") {
		t.Errorf("follow-ups = %+v", c.FollowUps)
	}
	if len(c.Pitfalls) != 1 || c.Pitfalls[0].Text() != "Saying only the departed worker's tasks stop." {
		t.Errorf("pitfalls = %+v", c.Pitfalls)
	}
}

func TestParseDefaultsAndCRLF(t *testing.T) {
	src := strings.ReplaceAll(baseCard, "\n", "\r\n")
	c, errs := Parse("f.md", []byte(src))
	if errs != nil {
		t.Fatal(errs)
	}
	if c.Timing != (Timing{DefaultBasics, DefaultSolid, DefaultDeeper}) || c.Sim != nil || c.Tags != nil {
		t.Errorf("defaults: timing=%+v sim=%v tags=%v", c.Timing, c.Sim, c.Tags)
	}
}

func TestHighlightCSS(t *testing.T) {
	css := HighlightCSS()
	if !strings.Contains(css, ".chroma") || !strings.Contains(css, ".kd") {
		t.Errorf("stylesheet lacks the classes code blocks use:\n%.300s", css)
	}
}

// baseCard is a minimal valid card; the line numbers in TestParseErrors refer to it.
const baseCard = `---
id: sample-card
question: Why?
topic: Testing
---

## Answer

- one
- two

## Basics

Basics text.

## Solid answer

Solid text.

## Go deeper

1. a
2. b
3. c
4. d

## Explanation

### Part

Long text.

## Follow-ups

### Really?

Yes.

## Pitfalls

- Saying no.
`

func TestParseBaseCardIsValid(t *testing.T) {
	if _, errs := Parse("f.md", []byte(baseCard)); errs != nil {
		t.Fatal(errs)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name     string
		old, new string // edits applied to baseCard (old "" means replace the whole card)
		want     []string
	}{
		{"unknown section", "## Basics", "## Basic", []string{
			`f.md:12: unknown section "Basic" (want "Answer", `,
			`f.md:16: missing section "## Basics"`}},
		{"out of order", "## Basics\n\nBasics text.\n\n## Solid answer\n\nSolid text.",
			"## Solid answer\n\nSolid text.\n\n## Basics\n\nBasics text.", []string{
				`f.md:16: section "Basics" is out of order: it must come before "Solid answer"`}},
		{"duplicate section", "## Solid answer", "## Basics", []string{
			`f.md:16: duplicate section "Basics" (first at line 12)`,
			`f.md:20: missing section "## Solid answer"`}},
		{"missing last section", "## Pitfalls\n\n- Saying no.\n", "", []string{
			`f.md:38: missing section "## Pitfalls"`}},
		{"go deeper three items", "4. d\n", "", []string{
			`f.md:22: section "Go deeper" must be an ordered list of exactly 4 items, found 3`}},
		{"go deeper bullets", "1. a\n2. b\n3. c\n4. d", "- a\n- b\n- c\n- d", []string{
			`f.md:22: section "Go deeper" must be an ordered list of exactly 4 items (1. ...)`}},
		{"answer ordered", "- one\n- two", "1. one\n2. two", []string{
			`f.md:9: section "Answer" must be a bullet list (- item)`}},
		{"answer extra paragraph", "- two\n", "- two\n\nAnd more.\n", []string{
			`f.md:12: section "Answer" must hold only a bullet list (- item); found more after it`}},
		{"pitfalls paragraph", "- Saying no.", "Saying no.", []string{
			`f.md:41: section "Pitfalls" must be a bullet list (- item)`}},
		{"empty basics", "Basics text.\n\n", "", []string{
			`f.md:12: section "Basics" is empty`}},
		{"follow-up without answer", "Yes.\n", "Yes.\n\n### And then?\n", []string{
			`f.md:39: follow-up "And then?" has no answer`}},
		{"follow-up text first", "### Really?\n\nYes.", "Loose text.\n\n### Really?\n\nYes.", []string{
			`f.md:35: text before the first follow-up: start each with "### question"`}},
		{"level-1 heading", "### Part", "# Part", []string{
			`f.md:29: level-1 heading "Part": sections use ## and headings inside them ### or deeper`}},
		{"nested level-1 heading", "- Saying no.", "- Saying no.\n\n  # Loud", []string{
			`f.md:43: level-1 heading "Loud"`}},
		{"text before sections", "---\n\n## Answer", "---\n\nHello.\n\n## Answer", []string{
			`f.md:7: text before the first section (## Answer)`}},
		{"bad slug", "id: sample-card", "id: Sample_Card", []string{
			`f.md:2: id "Sample_Card" must be lower-case letters, digits and single hyphens`}},
		{"unknown key", "topic: Testing\n", "topic: Testing\ncolour: red\n", []string{
			`f.md:5: unknown front matter key "colour" (want one of: id, question, topic, tags, timing, simulation)`}},
		{"missing topic", "topic: Testing\n", "", []string{
			`f.md:1: front matter: missing "topic"`}},
		{"duplicate key", "topic: Testing\n", "topic: Testing\ntopic: Again\n", []string{
			`f.md:5: duplicate front matter key "topic" (first at line 4)`}},
		{"bad timing", "topic: Testing\n", "topic: Testing\ntiming:\n  basics: 20s\n  solid: soon\n  deeper: 90\n", []string{
			`f.md:7: timing.solid: "soon" is not a positive duration like 20s or 1m30s`,
			`f.md:8: timing.deeper must be a duration like 20s or 1m30s`}},
		{"unknown timing key", "topic: Testing\n", "topic: Testing\ntiming: {fast: 5s}\n", []string{
			`f.md:5: unknown timing key "fast" (want basics, solid or deeper)`}},
		{"question not text", "question: Why?", "question: [a, b]", []string{
			`f.md:3: question must be text, not sequence (quote it)`}},
		{"tags not a list", "topic: Testing\n", "topic: Testing\ntags: kafka\n", []string{
			`f.md:5: tags must be a list, like [kafka, consumer]`}},
		{"bad tag", "topic: Testing\n", "topic: Testing\ntags:\n  - kafka\n  - Big Tag\n", []string{
			`f.md:7: tag "Big Tag" must be a lower-case word (letters, digits, hyphens)`}},
		{"simulation incomplete", "topic: Testing\n", "topic: Testing\nsimulation:\n  preset: bounce\n  compare: eager\n", []string{
			`f.md:5: simulation: missing "caption"`,
			`f.md:7: simulation.compare must be a non-empty list of variants, like [eager, cooperative]`}},
		{"yaml syntax", "question: Why?", "question: \"unterminated", []string{`f.md:3: front matter: `}},
		{"no front matter", "---\nid: sample-card\nquestion: Why?\ntopic: Testing\n---\n", "", []string{
			`f.md:1: missing front matter: a card starts with a line "---", its YAML fields, then "---"`}},
		{"unclosed front matter", "topic: Testing\n---\n", "topic: Testing\n", []string{
			`f.md:1: front matter is not closed: add a line "---" after its fields`,
			`f.md:1: text before the first section (## Answer)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(baseCard, tt.old) {
				t.Fatalf("edit target %q not in base card", tt.old)
			}
			src := strings.Replace(baseCard, tt.old, tt.new, 1)
			c, errs := Parse("f.md", []byte(src))
			if c != nil {
				t.Error("card returned along with errors")
			}
			assertErrors(t, errs, tt.want)
		})
	}
}

// assertErrors checks that each error starts with the corresponding wanted prefix.
func assertErrors(t *testing.T, errs ErrorList, want []string) {
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

func TestParseReportsEveryErrorInAFile(t *testing.T) {
	src := strings.NewReplacer("id: sample-card", "id: -bad", "4. d\n", "", "- Saying no.", "Saying no.").Replace(baseCard)
	_, errs := Parse("f.md", []byte(src))
	assertErrors(t, errs, []string{"f.md:2: id", "f.md:22: section \"Go deeper\"", "f.md:40: section \"Pitfalls\""})
}
