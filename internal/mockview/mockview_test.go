package mockview

import (
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

const card = `---
id: static
question: What does static membership change about a consumer restart?
topic: Test topic
tags: [kafka, static]
timing: {basics: 20s, solid: 40s}
---

## Answer

- A restarted member with the same group.instance.id gets its partitions back without a rebalance
- The coordinator waits up to session.timeout.ms before declaring it gone

## Basics

The member keeps its identity, so a quick restart does not trigger a rebalance.

## Solid answer

With group.instance.id set, the coordinator holds the member's assignment until the session times out.

## Go deeper

1. Knows the phrase static membership.
2. Names group.instance.id.
3. Explains the session timeout trade-off.
4. Relates it to rolling restarts.

## Explanation

Static members skip the JoinGroup round on restart.

## Follow-ups

### What is the downside?

A member that really died is noticed only after the session timeout.

## Pitfalls

- Saying static membership removes every rebalance: scaling still rebalances.
`

func testDeck(t *testing.T) *deck.Deck {
	t.Helper()
	d, err := deck.Load(fstest.MapFS{"kafka/static.md": {Data: []byte(card)}}, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A seeded session's "same questions" link fills the setup form with the same settings.
func TestSameLinkRoundTrip(t *testing.T) {
	d := testDeck(t)
	st := store.MockSettings{N: 3, Depth: "solid", Clock: "strict", FollowUps: true, Target: 45 * time.Second,
		Seeded: true, Seed: 99, Topics: []string{"test-topic"}, Tags: []string{"kafka"}}
	link := SameLink(st)
	u, err := url.Parse(link)
	if err != nil || u.Path != "/mock/new" {
		t.Fatalf("link %q: %v", link, err)
	}
	got, fe := Settings(d, ReadForm(u.Query(), false))
	if fe != nil {
		t.Fatalf("the link's form is refused: %+v", fe)
	}
	got.RecordReviews = st.RecordReviews
	if got.N != st.N || got.Depth != st.Depth || got.Clock != st.Clock || !got.FollowUps || got.Target != st.Target ||
		!got.Seeded || got.Seed != st.Seed || strings.Join(got.Topics, ",") != "test-topic" || strings.Join(got.Tags, ",") != "kafka" {
		t.Fatalf("round trip: %+v, want %+v", got, st)
	}
	if SameLink(store.MockSettings{N: 3}) != "" {
		t.Fatal("an unseeded session has no link")
	}
}

func TestSettingsRefusals(t *testing.T) {
	d := testDeck(t)
	q := url.Values{"n": {"21"}, "timer": {"0"}, "seed": {strings.Repeat("s", 41)}, "depth": {"expert"}, "tag": {"nope", "kafka", "kafka"}}
	_, fe := Settings(d, ReadForm(q, true))
	if fe == nil || fe.Fields["n"] == "" || fe.Fields["timer"] == "" || fe.Fields["seed"] == "" || !strings.Contains(fe.Form, `Unknown tag "nope"`) {
		t.Fatalf("errors: %+v", fe)
	}
	st, fe := Settings(d, ReadForm(url.Values{"tag": {"kafka", "kafka"}, "seed": {"team"}}, true))
	if fe != nil || len(st.Tags) != 1 || !st.Seeded || st.N != 5 || st.Depth != "basics" || st.Clock != "soft" || st.RecordReviews {
		t.Fatalf("defaults: %+v %+v", st, fe)
	}
	if f := ReadForm(url.Values{}, false); !f.Record {
		t.Fatal("a fresh form records reviews unless told not to")
	}
}

// The summary names the strongest and weakest of the rated questions; one rated question has
// no weakest.
func TestSummaryStrongestWeakest(t *testing.T) {
	d := testDeck(t)
	sess := &store.MockSession{ID: 1, Settings: store.MockSettings{Depth: "basics"}, Answers: []store.MockTurn{
		{Position: 0, MockQuestion: store.MockQuestion{CardID: "static", Target: 20 * time.Second, FollowUpIndex: -1},
			Used: 18 * time.Second, Typed: "restarted member keeps partitions", Covered: []int{0, 1}, Rating: 4},
		{Position: 1, MockQuestion: store.MockQuestion{CardID: "static", Target: 20 * time.Second, FollowUpIndex: -1},
			Used: 20 * time.Second, Expired: true, Rating: 1},
		{Position: 2, MockQuestion: store.MockQuestion{CardID: "static", Target: 20 * time.Second, FollowUpIndex: -1}},
	}}
	rows := Rows(d, sess, []store.Recording{{ID: 5, MockPosition: 0, Spoken: 15 * time.Second, Target: 20 * time.Second}})
	v := Summary(sess, rows)
	if v.Rated != 2 || v.WithContent != 1 || v.Strongest == nil || v.Strongest.Pos != 0 || v.Weakest == nil || v.Weakest.Pos != 1 {
		t.Fatalf("summary: %+v", v)
	}
	if rows[0].SpokenText != "spoken 15 s of a 20 s target" || rows[0].RecordingID != 5 || !rows[1].Empty || rows[2].Answered {
		t.Fatalf("rows: %+v", rows)
	}
	sess.Answers = sess.Answers[:1]
	if v := Summary(sess, Rows(d, sess, nil)); v.Weakest != nil || v.Strongest == nil {
		t.Fatalf("one answer: %+v", v)
	}
}

// The history counts silent timeouts apart from time used, and the trend runs oldest to newest.
func TestHistoryTrend(t *testing.T) {
	older := &store.MockSession{ID: 1, CreatedAt: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC), Answers: make([]store.MockTurn, 2)}
	newer := &store.MockSession{ID: 2, CreatedAt: time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC), Answers: make([]store.MockTurn, 1)}
	rows := [][]views.MockSummaryRow{
		{{Answered: true, Score: 80, Used: 30 * time.Second, Target: 20 * time.Second}},
		{{Answered: true, Score: 40, Used: 10 * time.Second, Target: 20 * time.Second}, {Answered: true, Empty: true, Expired: true, Score: 0}},
	}
	v := History([]*store.MockSession{newer, older}, rows)
	if len(v.Rows) != 2 || v.Rows[1].Timeouts != 1 || v.Rows[1].Answered != 1 || v.Rows[1].Time != 10*time.Second || v.Rows[0].Score != 80 {
		t.Fatalf("rows: %+v", v.Rows)
	}
	tr := v.Trend
	if len(tr.Points) != 2 || tr.MaxRatio != 1.5 || tr.Points[0].X >= tr.Points[1].X || tr.Points[0].Timeouts != 1 ||
		!strings.Contains(tr.Points[0].Label, "1 Jan") || !strings.Contains(tr.Points[0].Label, "1 ran out silent") {
		t.Fatalf("trend: %+v", tr)
	}
	if tr.Points[1].ScoreY >= tr.Points[0].ScoreY {
		t.Fatal("the higher score must be drawn higher")
	}
}
