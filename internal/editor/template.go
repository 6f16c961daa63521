package editor

import (
	"fmt"
	"strconv"
)

// Template is a new card with every field and section in place, so the author replaces text
// rather than remembering the format. It passes Check once saved as folder/new-card-id.md.
func Template(id, topic string) string {
	return fmt.Sprintf(`---
id: %s
question: "TODO: the interview question?"
topic: %s
tags: [todo]
timing: {basics: 20s, solid: 40s, deeper: 90s}
---

## Answer

- The one-line answer an interviewer wants first
- A second point with the **key term** in bold

## Basics

A spoken answer of about 20 seconds: what it is and why it matters.

## Solid answer

A spoken answer of about 40 seconds: how it works, the trade-off, and when you would choose it.

## Go deeper

1. Knows the phrase: names the concept.
2. Explains the mechanism.
3. Knows the trade-offs and the failure modes.
4. Expert: the edge cases and how to measure them in production.

## Explanation

The longer explanation, with examples. Markdown works here: lists, `+"`code`"+`, tables.

## Follow-ups

### A likely follow-up question?

Its short answer.

## Pitfalls

- Something that sounds right but costs you the question.
`, id, strconv.Quote(topic))
}
