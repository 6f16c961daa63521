package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
)

// pageView is what a tab shows of the user's progress: the card page's state and history, and
// the study page's card, counts and undo.
type pageView struct {
	CardState, History, StudyCard, Counts, Undo string
}

func (e *testEnv) pageView(c *http.Client, card string) pageView {
	e.t.Helper()
	var v pageView
	_, doc := e.get(c, "/cards/"+card)
	v.CardState = doc.Find("#progress-state").AttrOr("data-state", "?")
	v.History = strings.TrimSpace(doc.Find("#history summary").Text())
	for _, path := range []string{"/study", "/study?topic=a"} { // the queue over all cards and over one topic
		_, doc = e.get(c, path)
		card, _ := studied(doc)
		v.StudyCard += card + " "
		v.Counts += counts(doc) + " "
		v.Undo += doc.Find("#undo").AttrOr("title", "none") + " "
	}
	return v
}

// A rating is on every page at once, in the tab that gave it and in another tab of the same
// user, through the form,
// the JS swap and the JSON path, and so is an undo.
func TestProgressShowsAtOnceInEveryTab(t *testing.T) {
	e, tab1, _ := studyEnv(t, "a:x:one", "a:x:two", "b:y:three")
	tab2 := e.client()
	if resp, _ := e.post(tab2, "/login", url.Values{"username": {"sam"}, "password": {"not a real password"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("second tab's login: %d", resp.StatusCode)
	}
	other := e.signedIn("kim", store.RoleMember) // another user's answers change nothing for sam

	start := e.pageView(tab1, "one")
	if start.CardState != "new" || start.StudyCard != "one one " {
		t.Fatalf("start: %+v", start)
	}
	// step acts once both tabs have read everything, and
	// returns what both then show.
	step := func(name string, act func()) pageView {
		t.Helper()
		e.pageView(tab1, "one")
		e.pageView(tab2, "one")
		act()
		v1, v2 := e.pageView(tab1, "one"), e.pageView(tab2, "one")
		if v1 != v2 {
			t.Fatalf("after %s the tabs differ:\n%+v\n%+v", name, v1, v2)
		}
		return v1
	}
	rate := func(c *http.Client, rating srs.Rating, how string) func() {
		return func() {
			_, doc := e.get(c, "/study")
			form := rateForm(t, doc, int(rating))
			var resp *http.Response
			switch how {
			case "swap":
				resp, _ = e.postSwap(c, "/study/answer", form)
			case "json":
				req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/study/answer", strings.NewReader(form.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				req.Header.Set("Accept", "application/json")
				var err error
				if resp, err = c.Do(req); err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			default:
				resp, _ = e.post(c, "/study/answer", form)
			}
			if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("answer (%s): %d", how, resp.StatusCode)
			}
		}
	}
	undo := func(c *http.Client) func() {
		return func() {
			if resp, _ := e.post(c, "/study/undo", url.Values{}); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("undo: %d", resp.StatusCode)
			}
		}
	}

	views := []pageView{start}
	for i, r := range []struct {
		tab    *http.Client
		rating srs.Rating
		how    string
	}{{tab1, srs.Good, "form"}, {tab2, srs.Again, "swap"}, {tab1, srs.Easy, "json"}} {
		v := step("answer "+r.how, rate(r.tab, r.rating, r.how))
		if v == views[i] {
			t.Fatalf("answer %d (%s) changed nothing on the pages: %+v", i+1, r.how, v)
		}
		views = append(views, v)
	}
	if v := views[1]; v.CardState != "learning" || !strings.Contains(v.History, "(1)") || !strings.Contains(v.Undo, "Question of one?") {
		t.Fatalf("after the first answer: %+v", v)
	}
	if v := step("another user's answer", rate(other, srs.Good, "form")); v != views[3] {
		t.Fatalf("another user's answer changed sam's pages:\n%+v\n%+v", views[3], v)
	}
	for i, tab := range []*http.Client{tab2, tab1, tab2} { // each undo brings back the pages as they were
		if v, want := step("undo", undo(tab)), views[2-i]; v != want {
			t.Fatalf("undo %d shows\n%+v\nwant\n%+v", i+1, v, want)
		}
	}
}
