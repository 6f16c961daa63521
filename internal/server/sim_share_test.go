package server

import (
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// The lab's event rows: fields an event type does not use are ignored rather than rejected,
// a row set to "(none)" disappears, and one blank row is always there to add an event.
func TestSimLabEventRows(t *testing.T) {
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	// e0 is a join with a stray "value" and "down"; e2 is set to none; e3 a leave.
	resp, doc := e.get(e.client(), "/sim?kind=consumer&members=3&partitions=6&duration=60&p=eager"+
		"&e0type=join&e0at=10&e0member=m4&e0value=99&e0down=abc&e2type=&e2at=5&e3type=leave&e3at=20&e3member=m1")
	if resp.StatusCode != 200 || doc.Find(".field-error").Length() != 0 {
		t.Fatalf("status %d, errors %q", resp.StatusCode, doc.Find(".field-error").Text())
	}
	rows := doc.Find(".sim-event").Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-n", "") })
	if strings.Join(rows, ",") != "0,3,4" {
		t.Errorf("event rows = %v, want the join (0), the leave (3) and a blank row (4)", rows)
	}
	if got := doc.Find("#e4type option[selected]").AttrOr("value", "x"); got != "" {
		t.Errorf("blank row has type %q", got)
	}
	if v := doc.Find(`#ev0 [data-for] input[name=e0value]`).Parent().Parent().AttrOr("data-for", ""); v != "config slow_poll" {
		t.Errorf("value field data-for = %q", v)
	}
	if narr := doc.Find("#sim-rounds").Text(); !strings.Contains(narr, "m4") || !strings.Contains(narr, "m1") {
		t.Errorf("the join and the leave did not both run: %q", narr)
	}
}

// A short link stores the scenario by content hash: the same scenario gives the same link,
// the link renders the same lab, and unknown or malformed ids are 404s.
func TestSimShortLinks(t *testing.T) {
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	c := e.client()
	_, lab := e.get(c, labJoin+"&p=cooperative&t=10.5")
	q, ok := lab.Find("#sim-share input[name=q]").Attr("value")
	if !ok || !strings.Contains(q, "e0type=join") || !strings.Contains(q, "t=10.5") {
		t.Fatalf("share form query = %q", q)
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, _ := e.post(c, "/sim/share", url.Values{"q": {q}})
	loc := resp.Header.Get("Location")
	if resp.StatusCode != 303 || !shareLinkRE.MatchString(loc) {
		t.Fatalf("share: %d %q", resp.StatusCode, loc)
	}
	again, _ := e.post(c, "/sim/share", url.Values{"q": {q}})
	if again.Header.Get("Location") != loc {
		t.Errorf("the same scenario gave %q then %q", loc, again.Header.Get("Location"))
	}
	resp, shared := e.get(c, loc)
	// The link is printed whole, ready to copy, not as a path.
	if resp.StatusCode != 200 || !strings.HasPrefix(shared.Find("#short-link").Text(), "http://") || !strings.HasSuffix(shared.Find("#short-link").Text(), loc) {
		t.Fatalf("short link page: %d, link %q", resp.StatusCode, shared.Find("#short-link").Text())
	}
	a, _ := lab.Find("#sim-metrics").Html()
	b, _ := shared.Find("#sim-metrics").Html()
	if a != b || shared.Find("#t").AttrOr("value", "") != "10.5" {
		t.Error("the short link does not show the same scenario and moment")
	}
	for _, bad := range []string{"/sim/s/0000000000000000", "/sim/s/nothex", "/sim/s/" + strings.Repeat("a", 40)} {
		if resp, _ := e.get(c, bad); resp.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", bad, resp.StatusCode)
		}
	}
	for _, bad := range []url.Values{{"q": {"members=3"}}, {"q": {strings.Repeat("x", maxShareQuery+1)}}, {}} {
		if resp, _ := e.post(c, "/sim/share", bad); resp.StatusCode != 400 {
			t.Errorf("share %v: %d, want 400", bad, resp.StatusCode)
		}
	}
}

var shareLinkRE = regexp.MustCompile(`^/sim/s/[0-9a-f]{16}$`)

// Between a crash and the end of its session the dead member still holds its partitions in
// the group's eyes; the lab says so in words rather than "unowned · m2".
func TestSimLabExplainsAssignedButUnowned(t *testing.T) {
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	_, doc := e.get(e.client(), "/sim?kind=consumer&members=4&partitions=12&duration=90&p=cooperative&e0type=crash&e0at=10&e0member=m2&t=20")
	n := 0
	doc.Find("#sim-at tbody td").Each(func(_ int, td *goquery.Selection) {
		if td.Text() == "unowned (still assigned to m2)" {
			n++
		}
	})
	if n != 3 {
		t.Errorf("%d cells say m2's partitions are unowned but still assigned, want 3: %q", n, doc.Find("#sim-at tbody").Text())
	}
}

// Short links are made at most simSharesPerHour times an hour per address: anyone may make
// them, and the table is capped (the audit made ~740 a second).
func TestSimShareThrottled(t *testing.T) {
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	c := e.client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for i := range simSharesPerHour + 1 {
		resp, _ := e.post(c, "/sim/share", url.Values{"q": {labQuery("members", strconv.Itoa(3+i%5), "partitions", strconv.Itoa(6+i))[5:]}})
		want := http.StatusSeeOther
		if i == simSharesPerHour {
			want = http.StatusTooManyRequests
		}
		if resp.StatusCode != want {
			t.Fatalf("share %d: %d, want %d", i+1, resp.StatusCode, want)
		}
		if want == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
	}
}
