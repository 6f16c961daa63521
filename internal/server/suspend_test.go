package server

import (
	"context"
	"net/http"
	"net/url"
	"testing"
)

// TestStudyAheadBeyondTheNewCardLimit: with today's new cards done, the study page offers the
// topic's unseen cards, and following the offer studies them; without it the topic stays done.
func TestStudyAheadBeyondTheNewCardLimit(t *testing.T) {
	e, c, uid := studyEnv(t, "T:x:n1", "T:x:n2", "T:x:n3", "T:x:n4")
	ctx := context.Background()
	u, _ := e.db.UserByID(ctx, uid)
	u.Settings.NewPerDay = 1
	if err := e.db.UpdateSettings(ctx, uid, u.Settings); err != nil {
		t.Fatal(err)
	}
	_, doc := e.get(c, "/study")
	e.answerCard(c, doc, 4)
	_, doc = e.get(c, "/study")
	if _, state := studied(doc); state != "done" {
		t.Fatalf("after 1 of 1 new: %s", state)
	}
	link, ok := doc.Find("#study-ahead-link").Attr("href")
	if !ok || doc.Find("#study-ahead-link").Text() != "Study 3 more new cards today" {
		t.Fatalf("no study-ahead offer: %q %q", link, doc.Find("#study-ahead").Text())
	}
	_, doc = e.get(c, link)
	if id, _ := studied(doc); id != "n2" || counts(doc) != "0/0/3" {
		t.Fatalf("studying ahead: %s, counts %s", id, counts(doc))
	}
	// The raised limit rides along with each answer, until the extra cards are done.
	for range 3 {
		e.answerCard(c, doc, 4)
		_, doc = e.get(c, link)
	}
	if _, state := studied(doc); state != "done" || doc.Find("#study-ahead-link").Length() != 0 {
		t.Fatalf("after the 3 extra cards: %s, offer %d", state, doc.Find("#study-ahead-link").Length())
	}
	// A made-up limit is ignored, not an error.
	if resp, doc := e.get(c, "/study?new=999999"); resp.StatusCode != http.StatusOK || counts(doc) != "0/0/0" {
		t.Fatalf("absurd ?new=: %d, counts %s", resp.StatusCode, counts(doc))
	}
}

// TestSuspendLeavesStudyUntilUnsuspended: a card suspended in study leaves the queue (the next
// card shows), its page says so, and unsuspending brings it back.
func TestSuspendLeavesStudyUntilUnsuspended(t *testing.T) {
	e, c, _ := studyEnv(t, "T:x:n1", "T:x:n2")
	_, doc := e.get(c, "/study")
	if id, _ := studied(doc); id != "n1" {
		t.Fatalf("first card %s", id)
	}
	resp, _ := e.post(c, "/study/suspend", url.Values{"card": {"n1"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("suspend: %d", resp.StatusCode)
	}
	_, doc = e.get(c, resp.Header.Get("Location"))
	if id, _ := studied(doc); id != "n2" || counts(doc) != "0/0/1" || doc.Find("#suspended-note").Length() != 1 {
		t.Fatalf("after suspending n1: %s, counts %s", id, counts(doc))
	}
	_, doc = e.get(c, "/cards/n1")
	if doc.Find("#suspended").Length() != 1 {
		t.Fatal("the card page does not say the card is suspended")
	}
	if resp, _ := e.post(c, "/cards/n1/suspend", url.Values{"suspend": {"maybe"}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad suspend value: %d", resp.StatusCode)
	}
	if resp, _ := e.post(c, "/cards/n1/suspend", url.Values{"suspend": {"0"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("unsuspend: %d", resp.StatusCode)
	}
	_, doc = e.get(c, "/study")
	if id, _ := studied(doc); id != "n1" || counts(doc) != "0/0/2" {
		t.Fatalf("after unsuspending: %s, counts %s", id, counts(doc))
	}
}
