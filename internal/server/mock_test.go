package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/web"
)

// startMock posts the setup form and returns the session URL it redirects to.
func startMock(t *testing.T, e *testEnv, c *http.Client, form url.Values) string {
	t.Helper()
	form.Set("form", "1")
	resp, doc := e.post(c, "/mock", form)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("start mock: status %d: %s", resp.StatusCode, doc.Find("main").Text())
	}
	loc := resp.Header.Get("Location")
	if !strings.HasPrefix(loc, "/mock/") {
		t.Fatalf("start mock redirected to %q", loc)
	}
	return loc
}

// mustRedirect posts and checks for a 303 to want ("" = anywhere).
func mustRedirect(t *testing.T, e *testEnv, c *http.Client, path string, form url.Values, want string) string {
	t.Helper()
	resp, doc := e.post(c, path, form)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || (want != "" && loc != want) {
		t.Fatalf("POST %s: %d to %q, want 303 to %q: %s", path, resp.StatusCode, loc, want, doc.Find("main").Text())
	}
	return loc
}

// shownCard returns the card on a question or review page.
func shownCard(t *testing.T, e *testEnv, doc *goquery.Document) *deck.Card {
	t.Helper()
	id, _ := doc.Find("article.mock-step").Attr("data-card")
	c, ok := e.srv.deck().Card(id)
	if !ok {
		t.Fatalf("page shows no known card (%q): %s", id, doc.Find("main").Text())
	}
	return c
}

func userID(t *testing.T, e *testEnv, name string) int64 {
	u, err := e.db.UserByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func TestMockSetupValidation(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("ada", store.RoleMember)
	if resp, _ := e.get(e.client(), "/mock"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("anonymous /mock: %d, want a redirect to log in", resp.StatusCode)
	}
	_, doc := e.get(c, "/mock/new?seed=42&topic=test-topic&n=3&clock=strict")
	if v, _ := doc.Find("#seed").Attr("value"); v != "42" {
		t.Fatalf("seed not prefilled: %q", v)
	}
	if _, ok := doc.Find("input[name=topic][value=test-topic]").Attr("checked"); !ok {
		t.Fatal("topic not prefilled")
	}
	if _, ok := doc.Find("#clock-strict").Attr("checked"); !ok {
		t.Fatal("clock not prefilled")
	}
	if _, ok := doc.Find("#record").Attr("checked"); !ok {
		t.Fatal("recording should default to on")
	}
	for _, bad := range []url.Values{
		{"n": {"21"}, "depth": {"basics"}, "clock": {"soft"}},
		{"n": {"2"}, "depth": {"basics"}, "clock": {"soft"}, "timer": {"0"}},
		{"n": {"2"}, "depth": {"basics"}, "clock": {"soft"}, "tag": {"zookeeper"}},
		{"n": {"2"}, "depth": {"sideways"}, "clock": {"soft"}},
	} {
		resp, doc := e.post(c, "/mock", bad)
		msg := doc.Find(".field-error, #form-error").Text()
		if resp.StatusCode != http.StatusUnprocessableEntity || msg == "" {
			t.Errorf("%v: status %d, message %q", bad, resp.StatusCode, msg)
		}
	}
}

func TestMockFlowSummaryAndReviews(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("ada", store.RoleMember)
	base := startMock(t, e, c, url.Values{"n": {"2"}, "seed": {"7"}, "depth": {"basics"}, "clock": {"soft"}, "timer": {"10"}, "record": {"on"}})

	_, doc := e.get(c, base)
	first := shownCard(t, e, doc)
	if doc.Find("#question").Text() != first.Question || doc.Find("#mock-progress").Text() != "Question 1 of 2" {
		t.Fatalf("question page: %q / %q", doc.Find("#question").Text(), doc.Find("#mock-progress").Text())
	}
	if ms, _ := doc.Find("#clock").Attr("data-remaining-ms"); ms != "10000" {
		t.Fatalf("remaining %s ms, want the 10 s override", ms)
	}
	// A reload later shows the same clock, counted from the first showing.
	e.now = e.now.Add(4 * time.Second)
	_, doc = e.get(c, base)
	if ms, _ := doc.Find("#clock").Attr("data-remaining-ms"); ms != "6000" {
		t.Fatalf("after 4 s the page says %s ms left, want 6000", ms)
	}
	// Typing the first bullet ticks it in advance.
	mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"0"}, "typed": {first.Answer[0].Text()}}, base)
	_, doc = e.get(c, base)
	if _, ok := doc.Find("#covered-0").Attr("checked"); !ok {
		t.Fatalf("typed bullet not ticked: %s", doc.Find("#bullets").Text())
	}
	if _, ok := doc.Find("#covered-1").Attr("checked"); ok {
		t.Fatal("an untyped bullet was ticked")
	}
	if got := doc.Find("#used strong").Text(); got != "0:04" {
		t.Fatalf("time used %q, want 0:04", got)
	}
	if doc.Find("#rate-3").Length() != 1 || doc.Find("#to-followup").Length() != 0 {
		t.Fatal("without follow-ups the review should offer the ratings")
	}
	// A stale post for a question already answered changes nothing.
	mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"0"}, "typed": {"other"}}, base)
	mustRedirect(t, e, c, base+"/rate", url.Values{"pos": {"0"}, "checklist": {"1"}, "covered": {"0"}, "rating": {"3"}}, base)

	// Second question: 25 s on a 10 s soft clock, nothing typed, rated Again.
	_, doc = e.get(c, base)
	second := shownCard(t, e, doc)
	if second.ID == first.ID {
		t.Fatal("a question repeated")
	}
	e.now = e.now.Add(25 * time.Second)
	_, doc = e.get(c, base)
	if !doc.Find("#clock").HasClass("over") {
		t.Fatal("soft clock past the target should show as over")
	}
	mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"1"}}, base)
	mustRedirect(t, e, c, base+"/rate", url.Values{"pos": {"1"}, "checklist": {"1"}, "rating": {"1"}}, base+"/summary")

	_, doc = e.get(c, base+"/summary")
	r1, r2 := doc.Find("#row-1"), doc.Find("#row-2")
	if got := strings.Join(strings.Fields(r1.Find("td.time").Text()), " "); got != "0:04 / 0:10 typed: judged on content, time not scored" {
		t.Errorf("row 1 time %q", got)
	}
	// Typed, so judged on content: 1 of 2 points, Good: 90 × 0.5 + 10 × 2/3, the rating beside it.
	if r1.Find("td.bullets").Text() != "1 / 2" || r1.Find("td.score strong").Text() != "52" || r1.Find("td.score .rating").Text() != "(3 Good)" {
		t.Errorf("row 1: bullets %q score %q", r1.Find("td.bullets").Text(), r1.Find("td.score").Text())
	}
	// Nothing typed or ticked, Again: 0, and marked as empty.
	if r2.Find("td.score strong").Text() != "0" || !r2.Find("td.time").HasClass("over") || !r2.HasClass("empty") {
		t.Errorf("row 2 score %q", r2.Find("td.score").Text())
	}
	if doc.Find("#overall-score").Text() != "26" {
		t.Errorf("overall %q, want 26", doc.Find("#overall-score").Text())
	}
	if !strings.Contains(doc.Find("#score-formula").Text(), "60 × (key points made ÷ key points of the chosen depth)") ||
		!strings.Contains(doc.Find("#score-formula").Text(), "judged on content") {
		t.Error("score formula not explained")
	}
	// "Answered" counts answers with content; weakest is over every rated question, zeros included.
	if got := doc.Find("#answered-count").Text(); got != "1 of 2 answered" {
		t.Errorf("answered: %q", got)
	}
	if !strings.Contains(doc.Find("#strongest").Text(), first.Question) || !strings.Contains(doc.Find("#weakest").Text(), second.Question) {
		t.Errorf("strongest/weakest: %q / %q", doc.Find("#strongest").Text(), doc.Find("#weakest").Text())
	}
	link, _ := doc.Find("#same-questions").Attr("href")
	u, _ := url.Parse(link)
	if u.Path != "/mock/new" || u.Query().Get("seed") != "7" || u.Query().Get("n") != "2" || u.Query().Get("timer") != "10" {
		t.Errorf("same-questions link %q", link)
	}
	// Another user starting from the link gets the same two questions.
	bob := e.signedIn("bob", store.RoleMember)
	q := u.Query()
	q.Set("record", "on")
	other := startMock(t, e, bob, q)
	_, doc = e.get(bob, other)
	if shownCard(t, e, doc).ID != first.ID {
		t.Fatal("the same seed gave another user a different first question")
	}

	// Both ratings reached the spaced-repetition log as mock reviews.
	ctx := context.Background()
	for card, rating := range map[string]int{first.ID: 3, second.ID: 1} {
		h, err := e.db.ReviewHistory(ctx, userID(t, e, "ada"), card)
		if err != nil || len(h) != 1 || h[0].Mode != "mock" || int(h[0].Rating) != rating {
			t.Fatalf("review log for %s: %+v %v", card, h, err)
		}
	}
}

func TestMockStrictExpiryIsServerSide(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("ada", store.RoleMember)
	base := startMock(t, e, c, url.Values{"n": {"2"}, "seed": {"1"}, "depth": {"basics"}, "clock": {"strict"}, "timer": {"5"}})
	e.get(c, base) // shown now
	// At the deadline, the next page load submits an empty answer that used the whole target.
	e.now = e.now.Add(5 * time.Second)
	resp, _ := e.get(c, base)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("expired question: status %d, want a redirect to its review", resp.StatusCode)
	}
	_, doc := e.get(c, base)
	if doc.Find("#mock-review").Length() != 1 || !strings.Contains(doc.Find("#used").Text(), "ran out") {
		t.Fatalf("no review after expiry: %s", doc.Find("main").Text())
	}
	if got := doc.Find("#used strong").Text(); got != "0:05" || doc.Find("#typed-answer").Length() != 0 {
		t.Fatalf("expired answer: used %q, typed shown %d", got, doc.Find("#typed-answer").Length())
	}
	mustRedirect(t, e, c, base+"/rate", url.Values{"pos": {"0"}, "checklist": {"1"}, "rating": {"1"}}, base)

	// Text posted well after the deadline (past the grace) is dropped; within it, kept.
	e.get(c, base)
	e.now = e.now.Add(5*time.Second + interview.Grace + time.Second)
	mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"1"}, "typed": {"too late"}}, base)
	s := mockSessionOf(t, e, "ada", base)
	if a := s.Answers[1]; a.Typed != "" || a.Used != 5*time.Second || !a.Expired {
		t.Fatalf("late strict answer stored as %+v", a)
	}
	used, expired, typed := interview.Clock{Strict: true}.Used(e.now, e.now.Add(6*time.Second), 5*time.Second, "kept")
	if used != 5*time.Second || !expired || typed != "kept" {
		t.Fatalf("within grace: %v %v %q", used, expired, typed)
	}
	soft := interview.Clock{}
	if used, expired, _ := soft.Used(e.now, e.now.Add(9*time.Second), 5*time.Second, "x"); used != 9*time.Second || expired {
		t.Fatal("a soft clock should record the real time")
	}
}

func mockSessionOf(t *testing.T, e *testEnv, user, base string) *store.MockSession {
	t.Helper()
	id, _ := strconv.ParseInt(strings.TrimPrefix(base, "/mock/"), 10, 64)
	s, err := e.db.MockSession(context.Background(), userID(t, e, user), id, e.now)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// restart replaces the server with a new one over the same database, as after a restart.
func (e *testEnv) restart(c *http.Client) {
	e.t.Helper()
	old, _ := url.Parse(e.ts.URL)
	cookies := c.Jar.Cookies(old)
	e.ts.Close()
	d, err := deck.Load(os.DirFS("testdata/deck"), deck.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	assets, err := web.NewAssets(map[string][]byte{"highlight.css": []byte(deck.HighlightCSS())})
	if err != nil {
		e.t.Fatal(err)
	}
	e.srv = New(Config{}, e.db, StaticDeck{d}, assets, slog.New(slog.NewTextHandler(io.Discard, nil)), func() time.Time { return e.now })
	e.ts = httptest.NewServer(e.srv.Handler())
	e.t.Cleanup(e.ts.Close)
	nu, _ := url.Parse(e.ts.URL)
	c.Jar.SetCookies(nu, cookies)
}

func TestMockResumesAfterRestart(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("ada", store.RoleMember)
	base := startMock(t, e, c, url.Values{"n": {"2"}, "seed": {"3"}, "depth": {"solid"}, "clock": {"soft"}, "followups": {"on"}})
	_, doc := e.get(c, base)
	card := shownCard(t, e, doc)
	e.now = e.now.Add(7 * time.Second)
	e.restart(c)
	_, doc = e.get(c, base)
	if shownCard(t, e, doc).ID != card.ID {
		t.Fatal("restart moved to another question")
	}
	want := strconv.FormatInt((card.Timing.Solid - 7*time.Second).Milliseconds(), 10)
	if ms, _ := doc.Find("#clock").Attr("data-remaining-ms"); ms != want {
		t.Fatalf("after restart %s ms left, want %s (clock kept from the first showing)", ms, want)
	}

	// Follow-up: answer, save the checklist, then the follow-up under half the basics target.
	mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"0"}}, base)
	_, doc = e.get(c, base)
	if doc.Find("#to-followup").Length() != 1 || doc.Find("#rate-1").Length() != 0 {
		t.Fatal("with follow-ups on, the review should lead to the follow-up, not the rating")
	}
	// A rating before the follow-up is refused by sending the user back to the step.
	mustRedirect(t, e, c, base+"/rate", url.Values{"pos": {"0"}, "rating": {"4"}}, base)
	mustRedirect(t, e, c, base+"/check", url.Values{"pos": {"0"}, "covered": {"1"}}, base)
	e.restart(c)
	_, doc = e.get(c, base)
	fu := card.FollowUps[mockSessionOf(t, e, "ada", base).Answers[0].FollowUpIndex]
	if doc.Find("#question").Text() != fu.Question {
		t.Fatalf("follow-up page shows %q, want %q", doc.Find("#question").Text(), fu.Question)
	}
	if ms, _ := doc.Find("#clock").Attr("data-remaining-ms"); ms != strconv.FormatInt((card.Timing.Basics/2).Milliseconds(), 10) {
		t.Fatalf("follow-up clock %s ms", ms)
	}
	e.now = e.now.Add(3 * time.Second)
	mustRedirect(t, e, c, base+"/followup", url.Values{"pos": {"0"}, "typed": {"because"}}, base)
	_, doc = e.get(c, base)
	if doc.Find("#mock-followup-review").Length() != 1 || doc.Find("#used strong").Text() != "0:03" {
		t.Fatalf("follow-up review: %s", doc.Find("main").Text())
	}
	mustRedirect(t, e, c, base+"/rate", url.Values{"pos": {"0"}, "rating": {"4"}}, base)
	s := mockSessionOf(t, e, "ada", base)
	if a := s.Answers[0]; a.Rating != 4 || len(a.Covered) != 1 || a.Covered[0] != 1 || a.FollowUpTyped != "because" {
		t.Fatalf("stored answer %+v", a)
	}
	// The setup page offers to resume it; starting a new mock abandons it; the history says so.
	_, doc = e.get(c, "/mock")
	if href, _ := doc.Find("#mock-active a").Attr("href"); href != base {
		t.Fatalf("setup page resume link %q, want %q", href, base)
	}
	startMock(t, e, c, url.Values{"n": {"1"}, "depth": {"basics"}, "clock": {"soft"}})
	_, doc = e.get(c, "/mock/history")
	statuses := doc.Find("#history tbody tr").Map(func(_ int, s *goquery.Selection) string { v, _ := s.Attr("data-status"); return v })
	if strings.Join(statuses, ",") != "active,abandoned" {
		t.Fatalf("history statuses %v", statuses)
	}
	resp, _ := e.get(c, base)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != base+"/summary" {
		t.Fatalf("abandoned session: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// Another user cannot see it.
	if resp, _ := e.get(e.signedIn("eve", store.RoleMember), base+"/summary"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("other user's summary: %d", resp.StatusCode)
	}
}

func TestMockHistoryTrendAndOptOut(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("ada", store.RoleMember)
	for i := range 3 {
		base := startMock(t, e, c, url.Values{"n": {"1"}, "seed": {strconv.Itoa(i)}, "depth": {"basics"}, "clock": {"soft"}})
		_, doc := e.get(c, base)
		card := shownCard(t, e, doc)
		e.now = e.now.Add(time.Duration(i+1) * 10 * time.Second)
		mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"0"}}, base)
		mustRedirect(t, e, c, base+"/rate", url.Values{"pos": {"0"}, "checklist": {"1"}, "rating": {strconv.Itoa(i + 2)}}, base+"/summary")
		// record was not ticked: nothing reached the study log.
		if h, _ := e.db.ReviewHistory(context.Background(), userID(t, e, "ada"), card.ID); len(h) != 0 {
			t.Fatalf("opted-out session recorded %d reviews", len(h))
		}
		e.now = e.now.Add(time.Hour)
	}
	_, doc := e.get(c, "/mock/history")
	if doc.Find("#history tbody tr[data-status=finished]").Length() != 3 {
		t.Fatalf("history: %s", doc.Find("#history").Text())
	}
	svg := doc.Find("#trend svg")
	if svg.Find("circle").Length() != 3 || svg.Find("polyline.trend-score").Length() != 1 {
		t.Fatal("trend chart missing its points")
	}
	pts, _ := svg.Find("polyline.trend-score").Attr("points")
	if len(strings.Fields(pts)) != 3 {
		t.Fatalf("score line %q", pts)
	}
}
