package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
	"github.com/rehearse/rehearse/web"
)

// studyCard is a minimal valid card in the card format, for decks built in tests.
func studyCard(id, topic, tag string) string {
	return fmt.Sprintf(`---
id: %s
question: Question of %s?
topic: %s
tags: [%s]
---

## Answer

- Answer of %s

## Basics

Basics of %s.

## Solid answer

Solid answer of %s.

## Go deeper

1. One.
2. Two.
3. Three.
4. Four.

## Explanation

Explanation of %s.

## Follow-ups

### Why?

Because.

## Pitfalls

- A pitfall.
`, id, id, topic, tag, id, id, id, id)
}

// studyDeck builds a deck whose cards come in the order given; "topic:tag:id" specs.
func studyDeck(t testing.TB, specs ...string) *deck.Deck {
	t.Helper()
	fsys := fstest.MapFS{}
	for i, s := range specs {
		p := strings.SplitN(s, ":", 3)
		fsys[fmt.Sprintf("d/%02d-%s.md", i, p[2])] = &fstest.MapFile{Data: []byte(studyCard(p[2], p[0], p[1]))}
	}
	d, err := deck.Load(fsys, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// studyEnv is a test server over a generated deck with one signed-in member.
func studyEnv(t *testing.T, specs ...string) (*testEnv, *http.Client, int64) {
	t.Helper()
	e := newEnv(t, Config{})
	e.srv.decks = StaticDeck{studyDeck(t, specs...)}
	c := e.signedIn("sam", store.RoleMember)
	u, err := e.db.UserByName(context.Background(), "sam")
	if err != nil {
		t.Fatal(err)
	}
	return e, c, u.ID
}

// seed stores a state for a card as if it had been answered at `at` (in a mock, so the
// new-card allowance is untouched).
func (e *testEnv) seed(uid int64, id string, st srs.Card, at time.Time) {
	e.t.Helper()
	before, _, err := e.db.CardState(context.Background(), uid, id)
	if err != nil {
		e.t.Fatal(err)
	}
	st.Reps = before.Reps + 1
	if _, err := e.db.RecordReview(context.Background(), uid, id, before, st, srs.Good, at, 0, store.ModeMock); err != nil {
		e.t.Fatal(err)
	}
}

func studied(doc *goquery.Document) (card, state string) {
	s := doc.Find("#study")
	card, _ = s.Attr("data-card")
	state, _ = s.Attr("data-state")
	return card, state
}

func counts(doc *goquery.Document) string {
	return doc.Find("#count-learning").Text() + "/" + doc.Find("#count-review").Text() + "/" + doc.Find("#count-new").Text()
}

// answerCard submits the rating form of the page shown, as a browser would.
func (e *testEnv) answerCard(c *http.Client, doc *goquery.Document, rating int) *http.Response {
	e.t.Helper()
	form := url.Values{"rating": {strconv.Itoa(rating)}}
	doc.Find("#rate-form input[type=hidden]").Each(func(_ int, in *goquery.Selection) {
		form.Set(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	if form.Get("card") == "" {
		e.t.Fatal("no rating form on the page")
	}
	resp, _ := e.post(c, "/study/answer", form)
	if resp.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("answer: status %d", resp.StatusCode)
	}
	return resp
}

func TestStudyQueueOrderOverHTTP(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:new-a", "T:x:rev", "T:x:new-b", "T:x:learn", "T:x:not-due")
	past := e.now.Add(-48 * time.Hour)
	e.seed(uid, "rev", srs.Card{State: srs.Review, Stability: 2, Difficulty: 5, Due: e.now.Add(-time.Hour), LastReview: past}, past)
	e.seed(uid, "learn", srs.Card{State: srs.Learning, Stability: 1, Difficulty: 5, Due: e.now.Add(-time.Minute), LastReview: past}, past)
	e.seed(uid, "not-due", srs.Card{State: srs.Review, Stability: 9, Difficulty: 5, Due: e.now.Add(5 * 24 * time.Hour), LastReview: past}, past)

	var order []string
	for range 4 {
		_, doc := e.get(c, "/study")
		id, state := studied(doc)
		if state != "question" {
			t.Fatalf("after %v: state %q, want a question", order, state)
		}
		if len(order) == 0 && counts(doc) != "1/1/2" {
			t.Fatalf("counts %s, want 1 learning / 1 review / 2 new", counts(doc))
		}
		order = append(order, id)
		e.answerCard(c, doc, 4) // Easy: out of today's queue
	}
	if want := "learn rev new-a new-b"; strings.Join(order, " ") != want {
		t.Fatalf("study order %v, want %s", order, want)
	}
	_, doc := e.get(c, "/study")
	if _, state := studied(doc); state != "done" || doc.Find("#done").Length() != 1 {
		t.Fatalf("queue not empty: %s", state)
	}
	if !strings.Contains(doc.Find("#next-due").Text(), "due in") {
		t.Fatalf("next due text %q", doc.Find("#next-due").Text())
	}
}

func TestStudyRevealRateAndUndo(t *testing.T) {
	e, c, uid := studyEnv(t, "Alpha:x:one", "Alpha:x:two")
	ctx := context.Background()
	_, doc := e.get(c, "/study")
	id, state := studied(doc)
	if id != "one" || state != "question" || doc.Find("h1#question").Text() != "Question of one?" {
		t.Fatalf("first page: %s %s %q", id, state, doc.Find("h1#question").Text())
	}
	if _, hidden := doc.Find("#study-answer").Attr("hidden"); !hidden {
		t.Fatal("answer visible before reveal")
	}
	// The buttons show the intervals each rating gives a new card.
	ivl := func(d *goquery.Document, n int) string { return d.Find(fmt.Sprintf("#rate-%d .rate-ivl", n)).Text() }
	if ivl(doc, 1) != "1m" || ivl(doc, 2) != "6m" || ivl(doc, 3) != "10m" || !strings.HasSuffix(ivl(doc, 4), "d") {
		t.Fatalf("intervals %s %s %s %s", ivl(doc, 1), ivl(doc, 2), ivl(doc, 3), ivl(doc, 4))
	}
	// Without JavaScript the reveal is a GET form that keeps the card and when it was shown.
	shownAt := doc.Find("#reveal-form input[name=shown_at]").AttrOr("value", "")
	e.now = e.now.Add(7 * time.Second)
	_, doc = e.get(c, "/study?reveal=1&card=one&shown_at="+shownAt)
	if _, state := studied(doc); state != "answer" {
		t.Fatalf("reveal: state %q", state)
	}
	if _, hidden := doc.Find("#study-answer").Attr("hidden"); hidden || doc.Find("#study-answer #basics").Length() != 1 {
		t.Fatal("answer not shown after reveal")
	}
	if got := doc.Find("#rate-form input[name=shown_at]").AttrOr("value", ""); got != shownAt {
		t.Fatalf("shown_at %s, want the question's %s", got, shownAt)
	}
	if _, ok := doc.Find("#tier-basics").Attr("checked"); !ok {
		t.Fatal("default depth (basics) not selected")
	}
	resp := e.answerCard(c, doc, 3)
	if loc := resp.Header.Get("Location"); loc != "/study" {
		t.Fatalf("answer redirects to %q", loc)
	}
	st, _, _ := e.db.CardState(ctx, uid, "one")
	if st.State != srs.Learning || !st.Due.Equal(e.now.Add(10*time.Minute).Truncate(time.Millisecond)) {
		t.Fatalf("after Good: %+v", st)
	}
	h, _ := e.db.ReviewHistory(ctx, uid, "one")
	if len(h) != 1 || h[0].DurationMS != 7000 || h[0].Mode != store.ModeStudy {
		t.Fatalf("log %+v", h)
	}
	// Submitting the same form again (double click) does not answer twice.
	e.answerCard(c, doc, 1)
	if h, _ := e.db.ReviewHistory(ctx, uid, "one"); len(h) != 1 {
		t.Fatalf("double submit logged %d answers", len(h))
	}
	_, doc = e.get(c, "/study")
	if id, _ := studied(doc); id != "two" {
		t.Fatalf("next card %q, want two", id)
	}
	if doc.Find("#undo-form").Length() != 1 {
		t.Fatal("no undo after an answer")
	}
	// Undo: the previous card comes back as a question and its state is gone again.
	resp, _ = e.post(c, "/study/undo", nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/study?card=one" {
		t.Fatalf("undo: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, doc = e.get(c, resp.Header.Get("Location"))
	if id, state := studied(doc); id != "one" || state != "question" {
		t.Fatalf("after undo: %s %s", id, state)
	}
	if _, ok, _ := e.db.CardState(ctx, uid, "one"); ok {
		t.Fatal("undo left a state for a card that was new")
	}
	if counts(doc) != "0/0/2" || doc.Find("#undo-form").Length() != 0 {
		t.Fatalf("after undo counts %s, undo shown %d", counts(doc), doc.Find("#undo-form").Length())
	}
	// Nothing left to undo: back to the session, no error.
	if resp, _ := e.post(c, "/study/undo", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("empty undo: %d", resp.StatusCode)
	}
	// Bad input gets a clear refusal.
	if resp, _ := e.post(c, "/study/answer", url.Values{"card": {"one"}, "rating": {"5"}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("rating 5: %d", resp.StatusCode)
	}
	if resp, _ := e.post(c, "/study/answer", url.Values{"card": {"nope"}, "rating": {"3"}}); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown card: %d", resp.StatusCode)
	}
	if resp, _ := e.get(e.client(), "/study"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("anonymous /study: %d, want a redirect to login", resp.StatusCode)
	}
}

func TestStudyNewCardLimit(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:n1", "T:x:n2", "T:x:n3", "T:x:n4")
	ctx := context.Background()
	u, _ := e.db.UserByID(ctx, uid)
	u.Settings.NewPerDay = 2
	if err := e.db.UpdateSettings(ctx, uid, u.Settings); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, doc := e.get(c, "/study")
		e.answerCard(c, doc, 4)
	}
	_, doc := e.get(c, "/study")
	if _, state := studied(doc); state != "done" || counts(doc) != "0/0/0" {
		t.Fatalf("after 2 of 2 new: %s, counts %s", state, counts(doc))
	}
	// The allowance renews at 04:00, not at midnight (the test clock is 10:00 UTC).
	e.now = time.Date(2026, 11, 3, 3, 59, 0, 0, time.UTC)
	if _, doc := e.get(c, "/study"); counts(doc) != "0/0/0" {
		t.Fatalf("before 04:00: counts %s", counts(doc))
	}
	e.now = time.Date(2026, 11, 3, 4, 0, 0, 0, time.UTC)
	_, doc = e.get(c, "/study")
	if id, _ := studied(doc); id != "n3" || counts(doc) != "0/0/2" {
		t.Fatalf("next day: %s, counts %s", id, counts(doc))
	}
}

// TestStudyDayBoundaryNewYork: with the user's zone set to New York, a review due at 03:30 local
// tomorrow is due today; one due at 05:00 is not.
func TestStudyDayBoundaryNewYork(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:early", "T:x:late")
	ny, _ := time.LoadLocation("America/New_York")
	resp, _ := e.post(c, "/settings", url.Values{"retention": {"0.9"}, "new_per_day": {"0"}, "depth": {"basics"}, "timezone": {"America/New_York"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("settings: %d", resp.StatusCode)
	}
	e.now = time.Date(2026, 11, 2, 20, 0, 0, 0, ny)
	past := e.now.Add(-72 * time.Hour)
	e.seed(uid, "early", srs.Card{State: srs.Review, Stability: 3, Difficulty: 5, Due: time.Date(2026, 11, 3, 3, 30, 0, 0, ny), LastReview: past}, past)
	e.seed(uid, "late", srs.Card{State: srs.Review, Stability: 3, Difficulty: 5, Due: time.Date(2026, 11, 3, 5, 0, 0, 0, ny), LastReview: past}, past)
	_, doc := e.get(c, "/study")
	if id, _ := studied(doc); id != "early" || counts(doc) != "0/1/0" {
		t.Fatalf("evening in New York: %s, counts %s", id, counts(doc))
	}
	_, home := e.get(c, "/")
	if home.Find("#due-now strong").Text() != "1" {
		t.Fatalf("home due now %q", home.Find("#due-now strong").Text())
	}
	e.now = time.Date(2026, 11, 3, 4, 0, 0, 0, ny)
	if _, doc := e.get(c, "/study"); counts(doc) != "0/2/0" {
		t.Fatalf("after 04:00 in New York: counts %s", counts(doc))
	}
	// The done page names the next due time on the user's clock.
	e.now = time.Date(2026, 11, 2, 20, 0, 0, 0, ny)
	_, doc = e.get(c, "/study")
	e.answerCard(c, doc, 4)
	_, doc = e.get(c, "/study")
	if got := doc.Find("#next-due").Text(); !strings.Contains(got, "tomorrow 04:00") {
		t.Fatalf("next due %q, want tomorrow 04:00 (New York)", got)
	}
}

func TestStudyFilters(t *testing.T) {
	e, c, _ := studyEnv(t, "Alpha:a:a1", "Beta:b:b1", "Alpha:b:a2")
	_, doc := e.get(c, "/study?topic=beta")
	if id, _ := studied(doc); id != "b1" || counts(doc) != "0/0/1" {
		t.Fatalf("topic beta: %s %s", id, counts(doc))
	}
	if doc.Find("#rate-form input[name=topic]").AttrOr("value", "") != "beta" {
		t.Fatal("the topic is not kept in the rating form")
	}
	resp := e.answerCard(c, doc, 4)
	if loc := resp.Header.Get("Location"); loc != "/study?topic=beta" {
		t.Fatalf("answer within a topic redirects to %q", loc)
	}
	_, doc = e.get(c, "/study?tag=b")
	if id, _ := studied(doc); id != "a2" || counts(doc) != "0/0/1" {
		t.Fatalf("tag b: %s %s", id, counts(doc))
	}
	if resp, _ := e.get(c, "/study?topic=nope"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown topic: %d", resp.StatusCode)
	}
	if resp, _ := e.get(c, "/study?tag=nope"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown tag: %d", resp.StatusCode)
	}
}

func TestSettingsValidation(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:one")
	ctx := context.Background()
	u, _ := e.db.UserByID(ctx, uid)
	u.Settings.HideFromTeam = true
	e.db.UpdateSettings(ctx, uid, u.Settings)

	_, doc := e.get(c, "/settings")
	if doc.Find("#retention").AttrOr("value", "") != "0.90" || doc.Find("#timezone").AttrOr("value", "") != "UTC" {
		t.Fatal("settings form does not show the current values")
	}
	bad := url.Values{"retention": {"0.5"}, "new_per_day": {"500"}, "depth": {"everything"}, "timezone": {"Mars/Olympus_Mons"}}
	resp, doc := e.post(c, "/settings", bad)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad settings: %d", resp.StatusCode)
	}
	for _, f := range []string{"retention", "new_per_day", "depth", "timezone"} {
		if doc.Find("#"+f+"-error").Text() == "" {
			t.Errorf("no message at %s", f)
		}
	}
	if doc.Find("#timezone").AttrOr("value", "") != "Mars/Olympus_Mons" {
		t.Fatal("typed value lost")
	}
	for _, v := range []url.Values{
		{"retention": {"NaN"}, "new_per_day": {"10"}, "depth": {"solid"}, "timezone": {"UTC"}},
		{"retention": {"0.98"}, "new_per_day": {"10"}, "depth": {"solid"}, "timezone": {"UTC"}},
		{"retention": {"0.9"}, "new_per_day": {"-1"}, "depth": {"solid"}, "timezone": {"UTC"}},
		{"retention": {"0.9"}, "new_per_day": {"10"}, "depth": {"solid"}, "timezone": {"Local"}},
	} {
		if resp, _ := e.post(c, "/settings", v); resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%v accepted: %d", v, resp.StatusCode)
		}
	}
	if got, _ := e.db.UserByID(ctx, uid); got.Settings.DesiredRetention != 0.9 {
		t.Fatalf("a refused form changed settings: %+v", got.Settings)
	}
	good := url.Values{"retention": {"95%"}, "new_per_day": {"0"}, "depth": {"deeper"}, "timezone": {"Europe/Berlin"}}
	resp, _ = e.post(c, "/settings", good)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/settings?saved=1" {
		t.Fatalf("good settings: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	got, _ := e.db.UserByID(ctx, uid)
	want := store.Settings{DesiredRetention: 0.95, NewPerDay: 0, DefaultDepth: "deeper", TimeZone: "Europe/Berlin", HideFromTeam: true}
	if got.Settings != want {
		t.Fatalf("stored %+v, want %+v", got.Settings, want)
	}
	// The new retention changes the intervals offered; the depth opens the answer at "deeper".
	e.seed(uid, "one", srs.Card{State: srs.Review, Stability: 20, Difficulty: 5, Due: e.now, LastReview: e.now.Add(-20 * 24 * time.Hour)}, e.now.Add(-20*24*time.Hour))
	_, doc = e.get(c, "/study?reveal=1&card=one")
	if _, ok := doc.Find("#tier-deeper").Attr("checked"); !ok {
		t.Fatal("default depth not applied")
	}
}

func TestCardProgressSlot(t *testing.T) {
	e, c, _ := studyEnv(t, "T:x:one", "T:x:two")
	_, doc := e.get(c, "/cards/one")
	if doc.Find("#progress-state").AttrOr("data-state", "") != "new" {
		t.Fatal("unstudied card not shown as new")
	}
	_, doc = e.get(c, "/study")
	e.answerCard(c, doc, 3)
	e.now = e.now.Add(time.Hour)
	_, doc = e.get(c, "/cards/one")
	if doc.Find("#progress-state").AttrOr("data-state", "") != "learning" {
		t.Fatalf("state %q", doc.Find("#progress-state").Text())
	}
	if !strings.HasSuffix(doc.Find("#progress-retrievability").Text(), "%") || doc.Find("#history tbody tr").Length() != 1 {
		t.Fatal("retrievability or history missing")
	}
	if doc.Find("#history td").Eq(1).Text() != "Good" {
		t.Fatalf("history row %q", doc.Find("#history tr").Text())
	}
	if _, doc := e.get(e.client(), "/cards/one"); doc.Find("#progress").Length() != 0 {
		t.Fatal("anonymous visitor sees a progress block")
	}
	// Removing the card from the deck keeps its progress for when it returns.
	full := e.srv.decks
	e.srv.decks = StaticDeck{studyDeck(t, "T:x:two")}
	if _, doc := e.get(c, "/study"); counts(doc) != "0/0/1" {
		t.Fatalf("counts without the card: %s", counts(doc))
	}
	e.srv.decks = full
	_, doc = e.get(c, "/cards/one")
	if doc.Find("#progress-state").AttrOr("data-state", "") != "learning" || doc.Find("#history tbody tr").Length() != 1 {
		t.Fatal("progress lost when the card left the deck and came back")
	}
}

func TestStatsPage(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:one", "T:x:two", "T:x:three")
	day0 := e.now
	for i := range 3 { // three consecutive days, 2 answers each
		e.now = day0.AddDate(0, 0, i)
		e.seed(uid, "one", srs.Card{State: srs.Review, Stability: 5, Difficulty: 5, Due: e.now.Add(48 * time.Hour), LastReview: e.now}, e.now)
		e.seed(uid, "two", srs.Card{State: srs.Learning, Stability: 1, Difficulty: 5, Due: e.now.Add(time.Hour), LastReview: e.now}, e.now)
	}
	_, doc := e.get(c, "/stats")
	if n := doc.Find("#heatmap rect").Length(); n != 365 {
		t.Fatalf("heatmap has %d days", n)
	}
	today := doc.Find("#heatmap rect[data-date='2026-11-04']")
	if title := today.Find("title").Text(); !strings.Contains(title, "2 answers") || !strings.Contains(title, "minute") {
		t.Fatalf("today's square says %q", title)
	}
	if !strings.Contains(today.AttrOr("class", ""), "l4") {
		t.Fatalf("busiest day class %q", today.AttrOr("class", ""))
	}
	if doc.Find("#streak-current").Text() != "3 days" || doc.Find("#streak-longest").Text() != "3 days" {
		t.Fatalf("streaks %q %q", doc.Find("#streak-current").Text(), doc.Find("#streak-longest").Text())
	}
	// Two answers to "one" were given in the Review state, both Good.
	if got := doc.Find("#retention-7").Text(); got != "100 % (2 of 2)" {
		t.Fatalf("retention %q", got)
	}
	state := func(s string) string { return doc.Find("#by-state td[data-state=" + s + "]").Text() }
	if state("new") != "1" || state("learning") != "1" || state("review") != "1" || state("relearning") != "0" {
		t.Fatalf("by state %q", doc.Find("#by-state").Text())
	}
	if n := doc.Find("#forecast rect").Length(); n != 30 {
		t.Fatalf("forecast bars %d", n)
	}
	if got := doc.Find("#forecast rect").Eq(2).AttrOr("data-count", ""); got != "1" {
		t.Fatalf("card due in 2 days counted %q on day 2", got)
	}
}

// BenchmarkRatingPOST measures one answer end to end: session lookup, state read, FSRS, the
// write transaction and the redirect, over HTTP against a temp-file database.
func BenchmarkRatingPOST(b *testing.B) {
	db := storetest.Open(b)
	assets, err := web.NewAssets(nil)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	srv := New(Config{}, db, StaticDeck{studyDeck(b, "T:x:one")}, assets, slog.New(slog.NewTextHandler(io.Discard, nil)),
		func() time.Time { return now })
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	if _, err := db.CreateUser(context.Background(), "sam", dummyHash, store.RoleMember, now); err != nil {
		b.Fatal(err)
	}
	env := &testEnv{ts: ts}
	c := env.client()
	resp, err := c.PostForm(ts.URL+"/login", url.Values{"username": {"sam"}, "password": {"not a real password"}})
	if err != nil || resp.StatusCode != http.StatusSeeOther {
		b.Fatalf("login: %v", err)
	}
	resp.Body.Close()
	n := 0
	for i := 0; b.Loop(); i++ {
		now = now.Add(time.Minute) // stays well inside the 30-day session
		resp, err := c.PostForm(ts.URL+"/study/answer", url.Values{"card": {"one"}, "rating": {"3"}, "reps": {strconv.Itoa(i)},
			"shown_at": {strconv.FormatInt(now.Add(-5*time.Second).UnixMilli(), 10)}})
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			b.Fatalf("answer %d: status %d", i, resp.StatusCode)
		}
		n++
	}
	if h, _ := db.ReviewHistory(context.Background(), 1, "one"); len(h) != n {
		b.Fatalf("%d answers recorded, want %d", len(h), n)
	}
}

// The queue follows the clock: here a learning card coming into the learn-ahead window, then a
// day rolling over.
func TestStudyQueueFollowsTheClock(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:learn", "T:x:rev")
	past := e.now.Add(-48 * time.Hour)
	e.seed(uid, "learn", srs.Card{State: srs.Learning, Stability: 1, Difficulty: 5, Due: e.now.Add(30 * time.Minute), LastReview: past}, past)
	e.seed(uid, "rev", srs.Card{State: srs.Review, Stability: 9, Difficulty: 5, Due: e.now.Add(30 * time.Hour), LastReview: past}, past)
	for range 2 {
		if _, doc := e.get(c, "/study"); studied2(doc) != "done" {
			t.Fatalf("30 minutes before the learning card: %s, want done", studied2(doc))
		}
	}
	e.now = e.now.Add(11 * time.Minute) // 19 minutes before it: within the learn-ahead window
	if _, doc := e.get(c, "/study"); studied2(doc) != "question learn" {
		t.Fatalf("19 minutes before the learning card: %s, want it shown", studied2(doc))
	}
	_, doc := e.get(c, "/study")
	e.answerCard(c, doc, 4) // Easy: the learning card graduates, due in days
	if _, doc := e.get(c, "/study"); studied2(doc) != "done" {
		t.Fatalf("after the answer: %s, want done", studied2(doc))
	}
	e.now = e.now.Add(30 * time.Hour) // past the review card's day start
	if _, doc := e.get(c, "/study"); studied2(doc) != "question rev" {
		t.Fatalf("30 hours on: %s, want the review card", studied2(doc))
	}
}

func studied2(doc *goquery.Document) string {
	card, state := studied(doc)
	return strings.TrimSpace(state + " " + card)
}
