package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
)

// TestHomeLeadsWithWhatToDo: the home page says what is due and what is new now, explains the
// daily limit, and names the next due time once everything is done.
func TestHomeLeadsWithWhatToDo(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:one", "T:x:two", "T:x:three")
	settings := func(newPerDay string) {
		t.Helper()
		resp, _ := e.post(c, "/settings", url.Values{"retention": {"0.9"}, "new_per_day": {newPerDay}, "depth": {"basics"}, "timezone": {"UTC"}})
		if resp.StatusCode != 303 {
			t.Fatalf("settings: %d", resp.StatusCode)
		}
	}
	settings("2")
	_, doc := e.get(c, "/")
	if doc.Find("#new-now strong").Text() != "2" || doc.Find("#due-now").Length() != 0 || doc.Find("#start").Text() != "Start" {
		t.Fatalf("fresh account: %q", doc.Find("#now").Text())
	}
	if got := doc.Find("#now-detail").Text(); got != "New today: 2 of the 3 you have not seen (2 a day)." {
		t.Fatalf("detail %q", got)
	}
	if doc.Find("#first-steps").Length() != 1 {
		t.Fatal("a new account is not shown how a session goes")
	}
	past := e.now.Add(-72 * time.Hour)
	e.seed(uid, "one", srs.Card{State: srs.Review, Stability: 3, Difficulty: 5, Due: e.now.Add(-time.Hour), LastReview: past}, past)
	_, doc = e.get(c, "/")
	if doc.Find("#due-now strong").Text() != "1" || doc.Find("#new-now strong").Text() != "2" || !strings.Contains(doc.Find("#start").Text(), "Study now") {
		t.Fatalf("one due, two new: %q", doc.Find("#now").Text())
	}
	if doc.Find("#first-steps").Length() != 0 {
		t.Fatal("the first-steps help still shows after the first answer")
	}
	tile := doc.Find("#topics a.tile")
	if tile.AttrOr("data-studied", "") != "1" || tile.Find(".studied").Text() != "1 studied" || tile.Find(".pill.due").Text() != "1 due" {
		t.Fatalf("topic tile: %q", tile.Text())
	}
	// The topic page says where each card stands.
	_, topic := e.get(c, tile.AttrOr("href", ""))
	var statuses []string
	topic.Find("#topic-cards .card-status").Each(func(_ int, s *goquery.Selection) { statuses = append(statuses, s.Text()) })
	if strings.Join(statuses, ",") != "due today,new,new" || !topic.Find("#topic-cards .card-status").First().HasClass("due") {
		t.Fatalf("topic statuses %v", statuses)
	}
	// Nothing due but new cards: the page says when reviews resume.
	e.seed(uid, "one", srs.Card{State: srs.Review, Stability: 3, Difficulty: 5, Due: e.now.Add(50 * time.Hour), LastReview: e.now}, e.now)
	_, doc = e.get(c, "/")
	if doc.Find("#due-now").Length() != 0 || !strings.HasPrefix(doc.Find("#next-review").Text(), "The next card is due in") {
		t.Fatalf("new cards only: %q", doc.Find("#now").Text())
	}
	// Nothing due, no new cards allowed: caught up, with when the next card comes due.
	settings("0")
	_, doc = e.get(c, "/")
	if _, topic := e.get(c, tile.AttrOr("href", "")); topic.Find("#topic-cards .card-status").First().Text() != "next in 2d" {
		t.Fatalf("a review card due in 50 h reads %q", topic.Find("#topic-cards .card-status").First().Text())
	}
	detail := doc.Find("#now-detail").Text()
	if doc.Find("#caught-up").Length() != 1 || !strings.Contains(detail, "The next card is due in") || !strings.Contains(detail, "new cards are off") {
		t.Fatalf("caught up: %q", doc.Find("#now").Text())
	}
}

// TestStatsExplainWhatCounts: answers to new and learning cards are named as not counted, and
// the forecast has today's count, an axis and labels.
func TestStatsExplainWhatCounts(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:one", "T:x:two")
	// Two answers to a learning card: no review yet, and the page says why.
	e.seed(uid, "two", srs.Card{State: srs.Learning, Stability: 1, Difficulty: 5, Due: e.now.Add(time.Hour), LastReview: e.now}, e.now)
	e.seed(uid, "two", srs.Card{State: srs.Learning, Stability: 1, Difficulty: 5, Due: e.now.Add(time.Hour), LastReview: e.now}, e.now)
	_, doc := e.get(c, "/stats")
	if got := doc.Find("#retention-7").Text(); got != "no reviews yet" {
		t.Fatalf("retention %q", got)
	}
	if got := doc.Find("#retention-7-other").Text(); got != "2 answers to new or learning cards not counted" {
		t.Fatalf("not-counted line %q", got)
	}
	if !strings.Contains(doc.Find("#retention-help").Text(), "do not count") {
		t.Fatal("the page does not say which answers count")
	}
	if got := doc.Find("#forecast-summary").Text(); !strings.HasPrefix(got, "Today 1, tomorrow 0,") {
		t.Fatalf("forecast summary %q: today's due card must be named as today", got)
	}
	var ticks []string
	doc.Find("#forecast text.tick").Each(func(_ int, s *goquery.Selection) { ticks = append(ticks, s.Text()) })
	if strings.Join(ticks, ",") != "0,1,2" || doc.Find("#forecast line.axis-line").Length() != 1 {
		t.Fatalf("forecast axis ticks %v", ticks)
	}
}

// TestSearchPage: matches are highlighted and escaped, the question is not repeated as the
// snippet, and a typo gets the corrected query's results with a "did you mean" link.
func TestSearchPage(t *testing.T) {
	e := newEnv(t, Config{})
	_, doc := e.get(e.client(), "/search?q=eager")
	li := doc.Find("#results li").First()
	if li.Find("a.question mark").First().Text() != "eager" {
		t.Fatalf("question match not highlighted: %q", li.Find("a.question").Text())
	}
	if snip := li.Find(".snippet").Text(); strings.Contains(snip, "Why does eager rebalancing pause") {
		t.Fatalf("the question is repeated as the snippet: %q", snip)
	}
	_, doc = e.get(e.client(), "/search?q=SyncGroup")
	if got := doc.Find("#results .snippet mark").Text(); got != "SyncGroup" {
		t.Fatalf("snippet highlight %q", got)
	}
	if snip := doc.Find("#results .snippet").Text(); !strings.HasPrefix(snip, "Every member") && !strings.HasPrefix(snip, "…") {
		t.Fatalf("snippet starts mid-word: %q", snip)
	}
	_, doc = e.get(e.client(), "/search?q=revoks+eagre")
	if doc.Find("#did-you-mean a").Text() != "revoke eager" || doc.Find("#results a[href='/cards/sample-eager']").Length() != 1 {
		t.Fatalf("typo: %q", doc.Find("main").Text())
	}
	// Markup in the query comes back as text, never as elements.
	resp, doc := e.get(e.client(), "/search?q=%3Cscript%3Ealert(1)%3C/script%3E")
	if resp.StatusCode != 200 || doc.Find("main script").Length() != 0 || !strings.Contains(doc.Find("#result-count").Text(), "<script>") {
		t.Fatalf("hostile query: %d %q", resp.StatusCode, doc.Find("main").Text())
	}
}

// TestThemeSetting: the theme is saved per user and rendered into their pages; a bad value is
// a 400 that names the choices; the header toggle's request gets a bare 204; signed out, the
// route wants a login.
func TestThemeSetting(t *testing.T) {
	e := newEnv(t, Config{})
	ada := e.signedIn("ada", store.RoleMember)
	bob := e.signedIn("bob", store.RoleMember)
	resp, _ := e.post(ada, "/account/theme", url.Values{"theme": {"dark"}})
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/account?saved=theme") {
		t.Fatalf("save: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	_, doc := e.get(ada, "/")
	if th, _ := doc.Find("html").Attr("data-theme"); th != "dark" || doc.Find("html").AttrOr("data-theme-user", "") != "dark" {
		t.Fatalf("ada's page: data-theme=%q", th)
	}
	if _, doc := e.get(bob, "/"); doc.Find("html").AttrOr("data-theme", "") != "" || doc.Find("html").AttrOr("data-theme-user", "") != "system" {
		t.Fatal("another user's page took ada's theme")
	}
	if _, doc := e.get(ada, "/account"); doc.Find("#theme-dark[checked]").Length() != 1 {
		t.Fatal("the account page does not show the saved theme")
	}
	resp, doc = e.post(ada, "/account/theme", url.Values{"theme": {"sepia"}})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(doc.Find("main").Text(), "system, light or dark") {
		t.Fatalf("bad theme: %d %q", resp.StatusCode, doc.Find("main").Text())
	}
	if resp, _ := e.post(ada, "/account/theme", url.Values{"theme": {"system"}, "js": {"1"}}); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("toggle request: %d", resp.StatusCode)
	}
	if _, doc := e.get(ada, "/"); doc.Find("html").AttrOr("data-theme", "") != "" {
		t.Fatal("system did not clear the saved theme")
	}
	if resp, _ := e.post(e.client(), "/account/theme", url.Values{"theme": {"dark"}}); resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusOK {
		t.Fatalf("signed out: %d", resp.StatusCode)
	}
}
