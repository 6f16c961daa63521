package importer

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/rehearse/rehearse/internal/deck"
)

// FallbackTopic is the topic of an imported card whose question matches no rule.
const FallbackTopic = "Imported"

// Rule assigns Topic to a question containing any of Words (lower case).
type Rule struct {
	Words []string
	Topic string
}

// Topics guesses a topic from a question; the first matching rule wins.
type Topics []Rule

// Guess returns the topic of the first rule with a word in q, or FallbackTopic.
func (ts Topics) Guess(q string) string {
	l := strings.ToLower(q)
	for _, r := range ts {
		for _, w := range r.Words {
			if strings.Contains(l, w) {
				return r.Topic
			}
		}
	}
	return FallbackTopic
}

// ParseTopics reads rules, one a line: "word|other words: Topic name". Blank lines and lines
// starting with "#" are skipped. name is used in errors, which carry the line.
func ParseTopics(name, text string) (Topics, error) {
	var ts Topics
	var errs deck.ErrorList
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words, topic, ok := strings.Cut(line, ":")
		topic = strings.TrimSpace(topic)
		if !ok || topic == "" {
			errs = append(errs, deck.Error{File: name, Line: n, Msg: `want "word|other words: Topic"`})
			continue
		}
		r := Rule{Topic: topic}
		for _, w := range strings.Split(words, "|") {
			if w = strings.ToLower(strings.TrimSpace(w)); w != "" {
				r.Words = append(r.Words, w)
			}
		}
		if len(r.Words) == 0 {
			errs = append(errs, deck.Error{File: name, Line: n, Msg: fmt.Sprintf("no words before the topic %q", topic)})
			continue
		}
		ts = append(ts, r)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return ts, nil
}

// errs collects problems for one input file.
type errs struct {
	file string
	list deck.ErrorList
}

func (e *errs) add(line int, format string, args ...any) {
	e.list = append(e.list, deck.Error{File: e.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}
