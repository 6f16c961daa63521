package deck

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// card builds a valid card file with the given front matter values and explanation text.
func card(id, question, topic, explanation string) string {
	r := strings.NewReplacer("id: sample-card", "id: "+id, "question: Why?", "question: "+question,
		"topic: Testing", "topic: "+topic, "Long text.", explanation)
	return r.Replace(baseCard)
}

func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for name, body := range files {
		m[name] = &fstest.MapFile{Data: []byte(body)}
	}
	return m
}

func TestLoadOrderTopicsAndLookups(t *testing.T) {
	fsys := mapFS(map[string]string{
		"b/second.md":    card("second", "Second question?", "Kafka Connect", "x"),
		"a.md":           card("first", "First question?", "Consumers", "x"),
		"b/third.md":     card("third", "Third question?", "Consumers", "x"),
		"c.md":           card("fourth", "Fourth?", "Kafka Connect", "x"),
		"README.md":      "not a card",
		"_draft.md":      "not a card either",
		"_drafts/x.md":   "skipped directory",
		"notes.txt":      "ignored",
		"b/sub/last.md":  strings.Replace(card("last", "Last?", "Streams", "x"), "question: Last?", "question: Last?\ntags: [streams, kafka]", 1),
		".hidden/bad.md": "hidden directory",
	})
	d, err := Load(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, c := range d.Cards {
		ids = append(ids, c.ID)
		if c.Order != i {
			t.Errorf("%s: Order = %d, want %d", c.ID, c.Order, i)
		}
	}
	if got := strings.Join(ids, ","); got != "first,second,last,third,fourth" {
		t.Errorf("deck order = %s", got)
	}
	if d.Len() != 5 {
		t.Errorf("Len = %d", d.Len())
	}
	var topics []string
	for _, tp := range d.Topics() {
		topics = append(topics, fmt.Sprintf("%s(%s):%d", tp.Name, tp.Slug, len(tp.Cards)))
	}
	if got := strings.Join(topics, " "); got != "Consumers(consumers):2 Kafka Connect(kafka-connect):2 Streams(streams):1" {
		t.Errorf("topics = %s", got)
	}
	if tp, ok := d.TopicBySlug("kafka-connect"); !ok || tp.Cards[0].ID != "second" || tp.Cards[1].ID != "fourth" {
		t.Errorf("TopicBySlug = %+v, %v", tp, ok)
	}
	if _, ok := d.TopicBySlug("nope"); ok {
		t.Error("unknown topic slug found")
	}
	if c, ok := d.Card("third"); !ok || c.File != "b/third.md" {
		t.Errorf("Card(third) = %v, %v", c, ok)
	}
	if _, ok := d.Card("missing"); ok {
		t.Error("missing card found")
	}
	if got := strings.Join(d.Tags(), ","); got != "kafka,streams" {
		t.Errorf("tags = %s", got)
	}
}

func TestLoadReportsEveryErrorAtOnce(t *testing.T) {
	fsys := mapFS(map[string]string{
		"kafka/eager.md": strings.Replace(card("eager", "Q?", "T", "x"), "## Basics", "## Basic", 1),
		"a.md":           card("dup", "Q?", "T", "x"),
		"z/dup.md":       card("dup", "Other?", "T", "x"),
		"m.md":           strings.Replace(card("m", "Q?", "T", "x"), "4. d\n", "", 1),
	})
	_, err := Load(fsys, Options{})
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	want := []string{
		`kafka/eager.md:12: unknown section "Basic"`,
		`kafka/eager.md:16: missing section "## Basics"`,
		`m.md:22: section "Go deeper" must be an ordered list of exactly 4 items, found 3`,
		`z/dup.md:2: duplicate id "dup": also used by a.md`,
	}
	assertErrors(t, list, want)
	if lines := strings.Split(err.Error(), "\n"); len(lines) != len(want) || !strings.HasPrefix(lines[3], want[3]) {
		t.Errorf("Error() = %q", err.Error())
	}
}

func TestLoadCheckSim(t *testing.T) {
	withSim := strings.Replace(card("s", "Q?", "T", "x"), "topic: T\n",
		"topic: T\nsimulation:\n  preset: nope\n  compare: [eager]\n  caption: Look.\n", 1)
	fsys := mapFS(map[string]string{"s.md": withSim, "plain.md": card("p", "Q?", "T", "x")})
	calls := 0
	_, err := Load(fsys, Options{CheckSim: func(s *Simulation) error {
		calls++
		return fmt.Errorf("unknown preset %q", s.Preset)
	}})
	if calls != 1 {
		t.Errorf("CheckSim called %d times, want 1 (only cards with a simulation)", calls)
	}
	var list ErrorList
	errors.As(err, &list)
	assertErrors(t, list, []string{`s.md:5: simulation: unknown preset "nope"`})
}

func searchDeck(t testing.TB) *Deck {
	fsys := mapFS(map[string]string{
		"1.md": card("explained", "How do leaders work?", "T", "The offset commit is explained here."),
		"2.md": card("asked", "What is an offset commit?", "T", "Nothing."),
		"3.md": strings.Replace(card("answered", "Unrelated?", "T", "Nothing."), "- one", "- commits store the OFFSET", 1),
		"4.md": card("spread", "Offsets?", "T", "A commit happens."),
		"5.md": card("none", "Elsewhere?", "T", "Nothing at all."),
	})
	d, err := Load(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
