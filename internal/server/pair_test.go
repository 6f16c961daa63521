package server

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/store"
)

// rubricTexts is what only the interviewer may see of a card: its go-deeper levels, follow-up
// answers and pitfalls (a few words from each).
func rubricTexts(t *testing.T, e *testEnv, cardID string) []string {
	c, ok := e.srv.deck().Card(cardID)
	if !ok {
		t.Fatalf("no card %s", cardID)
	}
	var out []string
	add := func(s string) {
		if f := strings.Fields(s); len(f) >= 4 {
			out = append(out, strings.Join(f[:4], " "))
		}
	}
	for _, l := range c.Deeper {
		add(l.Text())
	}
	for _, p := range c.Pitfalls {
		add(p.Text())
	}
	for _, f := range c.FollowUps {
		add(f.Answer.Text())
	}
	if len(out) < 4 {
		t.Fatalf("card %s has too little rubric to test with: %v", cardID, out)
	}
	return out
}

func TestPairInterviewFlow(t *testing.T) {
	e := newEnv(t, Config{})
	e.now = time.Now() // the clock and the stream run on real time here
	ada := e.signedIn("ada", store.RoleMember)
	bob := e.signedIn("bob", store.RoleMember)
	eve := e.signedIn("eve", store.RoleMember)
	bobUser, _ := e.db.UserByName(context.Background(), "bob")
	rubric := rubricTexts(t, e, "sample-eager")

	resp, _ := e.post(ada, "/pair", url.Values{"candidate": {"1"}, "card": {"sample-eager"}})
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("interviewing yourself: %d", resp.StatusCode)
	}
	resp, _ = e.post(ada, "/pair", url.Values{"candidate": {itoa(bobUser.ID)}, "card": {"sample-eager"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("open: %d", resp.StatusCode)
	}
	path := resp.Header.Get("Location")

	// The interviewer's screen has the rubric; the candidate's has none of it, and not even the
	// question before the start. Someone else cannot open it.
	_, doc := e.get(ada, path)
	if html, _ := doc.Html(); !strings.Contains(html, rubric[0]) || doc.Find("#pair-start").Length() != 1 {
		t.Fatal("the interviewer's screen lacks the rubric or the start button")
	}
	candidatePage := func() string {
		resp, doc := e.get(bob, path)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("candidate page: %d", resp.StatusCode)
		}
		html, _ := doc.Html()
		for _, r := range rubric {
			if strings.Contains(html, r) {
				t.Fatalf("the candidate's page holds rubric text %q", r)
			}
		}
		return doc.Find("#pair-question").Text()
	}
	if q := candidatePage(); strings.Contains(q, "?") && !strings.Contains(q, "appears") {
		t.Fatalf("the question before the start: %q", q)
	}
	if resp, _ := e.get(eve, path); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("an outsider: %d", resp.StatusCode)
	}
	if resp, _ := e.post(bob, path+"/start", nil); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("the candidate starts: %d", resp.StatusCode)
	}

	// The candidate's event stream: an event now, one when the interviewer starts, one at the end.
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL+path+"/events", nil)
	stream, err := bob.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	if ct := stream.Header.Get("Content-Type"); ct != "text/event-stream" || stream.Header.Get("X-Accel-Buffering") != "no" {
		t.Fatalf("stream headers: %v", stream.Header)
	}
	events := make(chan string, 16)
	var all strings.Builder
	go func() {
		sc := bufio.NewScanner(stream.Body)
		for sc.Scan() {
			all.WriteString(sc.Text() + "\n")
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- d
			}
		}
		close(events)
	}()
	next := func(want string) {
		t.Helper()
		select {
		case d := <-events:
			if !strings.Contains(d, `"state":"`+want+`"`) {
				t.Fatalf("event %s, want state %s", d, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no event for %s", want)
		}
	}
	next("waiting")
	if resp, _ := e.post(ada, path+"/start", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d", resp.StatusCode)
	}
	next("running")
	if q := candidatePage(); !strings.Contains(q, "?") {
		t.Fatalf("the question once started: %q", q)
	}
	if resp, _ := e.post(ada, path+"/finish", url.Values{"level": {"7"}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("level 7: %d", resp.StatusCode)
	}
	if resp, _ := e.post(ada, path+"/finish", url.Values{"level": {"3"}, "pitfall": {"0"}, "notes": {"Clear on the eager protocol."}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("finish: %d", resp.StatusCode)
	}
	next("done")
	_, doc = e.get(bob, path)
	if doc.Find("#result-level").Text() != "3" || doc.Find("#result-hits").Text() != "1" || !strings.Contains(doc.Find("#result-notes").Text(), "eager protocol") {
		t.Fatalf("the candidate's result: %q", doc.Find("#pair-result").Text())
	}
	candidatePage()
	// The result counts in the candidate's mock history.
	hist, err := e.db.MockHistory(context.Background(), bobUser.ID, 10, e.now.Add(time.Hour))
	if err != nil || len(hist) != 1 {
		t.Fatalf("bob's mock history: %v, %v", hist, err)
	}
	stream.Body.Close()
	for range events {
	}
	for _, r := range rubric {
		if strings.Contains(all.String(), r) {
			t.Fatalf("the candidate's event stream carried rubric text %q", r)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestPairCancel(t *testing.T) {
	e := newEnv(t, Config{})
	ada := e.signedIn("ada", store.RoleMember)
	bob := e.signedIn("bob", store.RoleMember)
	eve := e.signedIn("eve", store.RoleMember)
	bobUser, _ := e.db.UserByName(context.Background(), "bob")
	resp, _ := e.post(ada, "/pair", url.Values{"candidate": {itoa(bobUser.ID)}, "card": {"sample-eager"}})
	path := resp.Header.Get("Location")
	if resp, _ := e.post(eve, path+"/cancel", nil); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("an outsider cancels: %d", resp.StatusCode)
	}
	if resp, _ := e.post(bob, path+"/cancel", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the candidate cancels: %d", resp.StatusCode)
	}
	_, doc := e.get(ada, path)
	if doc.Find("#pair-state").AttrOr("data-state", "") != "cancelled" || doc.Find("#pair-start, #pair-cancel").Length() != 0 {
		t.Fatalf("after cancelling: %q", doc.Find("#pair-state").Text())
	}
	if resp, _ := e.post(ada, path+"/start", nil); resp.StatusCode != http.StatusConflict {
		t.Fatalf("starting a cancelled session: %d", resp.StatusCode)
	}
}
