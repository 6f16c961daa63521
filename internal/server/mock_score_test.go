package server

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/store"
)

// The case: an instant empty answer rated Easy scores at most 10 and below a real
// answer rated Good, and the summary names the real answer strongest.
func TestMockEmptyEasyBelowRealGood(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	c := e.signedIn("ada", store.RoleMember)
	base := startMock(t, e, c, url.Values{"n": {"2"}, "seed": {"3"}, "depth": {"deeper"}, "clock": {"soft"}})

	_, doc := e.get(c, base)
	shownCard(t, e, doc)
	e.now = e.now.Add(time.Second)
	mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"0"}}, base)
	mustRedirect(t, e, c, base+"/rate", url.Values{"pos": {"0"}, "checklist": {"1"}, "rating": {"4"}}, base)

	_, doc = e.get(c, base)
	second := shownCard(t, e, doc)
	var said []string
	for _, b := range second.Answer {
		said = append(said, b.Text())
	}
	e.now = e.now.Add(second.Timing.Deeper)
	mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"1"}, "typed": {strings.Join(said, ". ")}}, base)
	_, doc = e.get(c, base)
	form := url.Values{"pos": {"1"}, "checklist": {"1"}, "rating": {"3"}}
	doc.Find("input[name=covered][checked]").Each(func(_ int, s *goquery.Selection) { form.Add("covered", s.AttrOr("value", "")) })
	if len(form["covered"]) != len(second.Answer) {
		t.Fatalf("typing every point ticked %d of %d", len(form["covered"]), len(second.Answer))
	}
	mustRedirect(t, e, c, base+"/rate", form, base+"/summary")

	_, doc = e.get(c, base+"/summary")
	first, _ := strconv.Atoi(doc.Find("#row-1 td.score strong").Text())
	real, _ := strconv.Atoi(doc.Find("#row-2 td.score strong").Text())
	if first > 10 || first >= real {
		t.Fatalf("empty Easy scored %d, real Good %d", first, real)
	}
	if !strings.Contains(doc.Find("#strongest").Text(), second.Question) {
		t.Fatalf("strongest: %q, want %q", doc.Find("#strongest").Text(), second.Question)
	}
}

// End session asks first, on a page of its own; ending says honestly what was answered.
func TestMockEndAsksFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	c := e.signedIn("ada", store.RoleMember)
	base := startMock(t, e, c, url.Values{"n": {"2"}, "seed": {"3"}, "depth": {"basics"}, "clock": {"soft"}})
	_, doc := e.get(c, base)
	if href, _ := doc.Find("#mock-abandon").Attr("href"); href != base+"/end" {
		t.Fatalf("End session goes to %q", href)
	}
	resp, doc := e.get(c, base+"/end")
	if resp.StatusCode != http.StatusOK || doc.Find("#mock-end-confirm").Length() != 1 ||
		!strings.Contains(doc.Find("#mock-end").Text(), "0 of 2") {
		t.Fatalf("confirm page: %d %q", resp.StatusCode, doc.Find("main").Text())
	}
	if _, doc = e.get(c, base); doc.Find("#mock-question").Length() != 1 {
		t.Fatal("asking ended the session")
	}
	mustRedirect(t, e, c, base+"/abandon", url.Values{}, base+"/summary")
	_, doc = e.get(c, base+"/summary")
	status := strings.Join(strings.Fields(doc.Find("#summary-status").Text()), " ")
	if !strings.Contains(status, "ended early") || !strings.Contains(status, "0 of 2 answered") {
		t.Errorf("status %q", status)
	}
	if doc.Find("#overall-score").Length() != 0 || doc.Find("#no-score").Length() != 1 {
		t.Error("an abandoned session with nothing answered shows a score")
	}
	if note := doc.Find("#recorded-note").Text(); strings.Contains(note, "were recorded") {
		t.Errorf("claims ratings were recorded: %q", note)
	}
}
