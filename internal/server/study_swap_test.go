package server

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/srs"
)

// postSwap posts a form the way study.js does.
func (e *testEnv) postSwap(c *http.Client, path string, form url.Values) (*http.Response, *goquery.Document) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(swapHeader, "1")
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp, doc
}

func rateForm(t *testing.T, doc *goquery.Document, rating int) url.Values {
	t.Helper()
	form := url.Values{"rating": {strconv.Itoa(rating)}}
	doc.Find("#rate-form input[type=hidden]").Each(func(_ int, in *goquery.Selection) {
		form.Set(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	if form.Get("card") == "" {
		t.Fatal("no rating form on the page")
	}
	return form
}

// The JS path gets the next card in the answer's own response; a repeated post of the same
// form shows the next card again without recording a second answer.
func TestStudyAnswerSwapReturnsNextPage(t *testing.T) {
	e, c, uid := studyEnv(t, "a:x:one", "a:x:two")
	_, doc := e.get(c, "/study")
	form := rateForm(t, doc, int(srs.Good))
	resp, next := e.postSwap(c, "/study/answer", form)
	if resp.StatusCode != http.StatusOK || resp.Header.Get(studyURLHeader) != "/study" {
		t.Fatalf("swap answer: %d, URL header %q", resp.StatusCode, resp.Header.Get(studyURLHeader))
	}
	if card, _ := studied(next); card != "two" {
		t.Fatalf("next card in the response: %q, want two", card)
	}
	resp, again := e.postSwap(c, "/study/answer", form)
	if card, _ := studied(again); resp.StatusCode != http.StatusOK || card != "two" {
		t.Fatalf("repeated post: %d showing %q", resp.StatusCode, card)
	}
	hist, err := e.db.ReviewHistory(context.Background(), uid, "one")
	if err != nil || len(hist) != 1 {
		t.Fatalf("answers recorded for one: %d (%v), want 1", len(hist), err)
	}
	// Undo through the same path brings back the card it took back, pinned.
	resp, undone := e.postSwap(c, "/study/undo", url.Values{})
	if card, _ := studied(undone); resp.StatusCode != http.StatusOK || card != "one" ||
		resp.Header.Get(studyURLHeader) != "/study?card=one" {
		t.Fatalf("undo: %d showing %q at %q", resp.StatusCode, card, resp.Header.Get(studyURLHeader))
	}
}

// The interval printed on each button is the interval pressing it applies (issue 16), even a
// little later: the fuzz no longer depends on the clock.
func TestButtonIntervalIsApplied(t *testing.T) {
	e, c, uid := studyEnv(t, "a:x:one")
	ctx := context.Background()
	e.seed(uid, "one", srs.Card{State: srs.Review, Stability: 40, Difficulty: 5,
		LastReview: e.now.Add(-40 * 24 * time.Hour), Due: e.now.Add(-time.Hour)}, e.now.Add(-40*24*time.Hour))
	start := e.now
	for rating := 1; rating <= 4; rating++ {
		e.now = start
		_, doc := e.get(c, "/study")
		shown := strings.TrimSpace(doc.Find("#rate-" + strconv.Itoa(rating) + " .rate-ivl").Text())
		_, reloaded := e.get(c, "/study")
		shownAgain := strings.TrimSpace(reloaded.Find("#rate-" + strconv.Itoa(rating) + " .rate-ivl").Text())
		if shown == "" || shown != shownAgain {
			t.Fatalf("rating %d: button says %q then %q on a reload", rating, shown, shownAgain)
		}
		e.now = start.Add(40 * time.Second)
		if resp, _ := e.post(c, "/study/answer", rateForm(t, doc, rating)); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("rating %d: status %d", rating, resp.StatusCode)
		}
		st, _, err := e.db.CardState(ctx, uid, "one")
		if err != nil {
			t.Fatal(err)
		}
		if applied := srs.FormatInterval(st.Due.Sub(e.now)); applied != shown {
			t.Errorf("rating %d: button showed %s, pressing applied %s", rating, shown, applied)
		}
		if resp, _ := e.post(c, "/study/undo", url.Values{}); resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("undo: %d", resp.StatusCode)
		}
	}
}
