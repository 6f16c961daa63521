package pairview

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/pair"
	"github.com/rehearse/rehearse/internal/store"
)

// The candidate never sees the question before the clock starts, on the list or on the screen.
func TestQuestionHiddenUntilStart(t *testing.T) {
	d, err := deck.Load(fstest.MapFS{"t/c.md": {Data: []byte(card)}}, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Cards[0]
	sess := &pair.Session{Code: "x", Interviewer: 1, Candidate: 2, CardID: "c", State: pair.Waiting, Target: time.Minute}
	team := []*store.User{{ID: 1, Username: "ann"}, {ID: 2, Username: "bob"}}
	for _, tc := range []struct {
		me       int64
		question string
		with     string
	}{{1, "Why?", "bob"}, {2, "A question not shown yet", "ann"}} {
		v := Index(tc.me, team, d, []*pair.Session{sess}, nil)
		if len(v.Colleagues) != 1 || len(v.Cards) != 1 || v.Sessions[0].Question != tc.question || v.Sessions[0].With != tc.with {
			t.Fatalf("index for %d: %+v", tc.me, v)
		}
	}
	now := time.Unix(1000, 0)
	if v := Candidate(sess, Live(sess, "ann", now), c); v.Question != "" || v.Live.With != "ann" {
		t.Fatalf("waiting candidate: %+v", v)
	}
	sess.State, sess.StartedAt = pair.Running, now.Add(-10*time.Second)
	if v := Candidate(sess, Live(sess, "ann", now), c); v.Question != "Why?" || v.Live.UsedMS != 10000 || v.Live.Level != 0 {
		t.Fatalf("running candidate: %+v", v)
	}
	sess.State, sess.EndedAt, sess.Level, sess.PitfallsHit = pair.Done, now, 3, []int{1, 5}
	v := Interviewer(sess, Live(sess, "bob", now), c, true, nil)
	if !v.Here || v.Pitfalls[0] || !v.Pitfalls[1] || v.Live.Level != 3 || v.Live.Hits != 2 {
		t.Fatalf("interviewer after the result: %+v", v)
	}
}

const card = `---
id: c
question: Why?
topic: T
timing: {basics: 20s, solid: 40s}
---

## Answer

- One point
- Another point

## Basics

Basics.

## Solid answer

Solid.

## Go deeper

1. One.
2. Two.
3. Three.
4. Four.

## Explanation

Because.

## Follow-ups

### And then?

Then.

## Pitfalls

- First pitfall.
- Second pitfall.
`
