package server

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/store"
)

// A card edited after readers viewed it shows its new text on their very next request: to a
// signed-in member and to an anonymous visitor, on the card page, in study and in search. No
// page, figure or progress kept from before the edit may show the old text.
func TestEditedCardShowsNewTextAtOnce(t *testing.T) {
	e, dir := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)
	member := e.signedIn("kim", store.RoleMember)
	anon := e.client()
	c, ok := e.srv.deck().Card("mock-cooperative")
	if !ok {
		t.Fatal("no mock-cooperative card in the test deck")
	}
	const oldText, newText = "Members keep processing", "Quokkas keep processing"
	study := "/study?card=" + c.ID + "&reveal=1"
	views := func(when string, want, gone string) {
		t.Helper()
		for name, page := range map[string]struct {
			c    *http.Client
			path string
		}{
			"anonymous card page": {anon, "/cards/" + c.ID},
			"member card page":    {member, "/cards/" + c.ID},
			"member study":        {member, study},
		} {
			resp, doc := e.get(page.c, page.path)
			body, _ := doc.Html()
			if resp.StatusCode != http.StatusOK || !strings.Contains(body, want) || strings.Contains(body, gone) {
				t.Errorf("%s, %s: status %d, shows %q: %v, still shows %q: %v", when, name, resp.StatusCode,
					want, strings.Contains(body, want), gone, strings.Contains(body, gone))
			}
		}
		for name, cl := range map[string]*http.Client{"anonymous": anon, "member": member} {
			_, doc := e.get(cl, "/search?q="+url.QueryEscape(strings.Fields(want)[0]))
			if doc.Find(`a[href="/cards/`+c.ID+`"]`).Length() == 0 {
				t.Errorf("%s, %s search for %q: the card is not among the hits", when, name, strings.Fields(want)[0])
			}
		}
	}
	views("before the edit", oldText, newText) // every page seen once, whatever it keeps

	orig, err := os.ReadFile(dir + "/" + c.File)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(orig), oldText, newText, 1)
	if resp, doc := e.post(admin, "/cards/"+c.ID+"/edit", url.Values{"md": {edited}, "action": {"save"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %q", resp.StatusCode, doc.Find("#editor-errors").Text())
	}
	views("after the edit", newText, oldText)
}
