package e2e

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// maxPageWeight is the budget for one page with everything it loads, as sent (gzip).
const maxPageWeight = 100 << 10

// mainPages are the pages the weight and third-party checks cover. Paths under /topics/ and
// /cards/ are filled in from the running app.
var mainPages = []struct{ name, path string }{
	{"home", "/"},
	{"topic", "/topics/"},
	{"card with simulation", "/cards/diagnosing-frequent-rebalances"},
	{"search", "/search?q=rebalance"},
	{"study", "/study"},
	{"stats", "/stats"},
	{"mock setup", "/mock"},
	{"sim lab", "/sim"},
	{"admin", "/admin"},
	{"team", "/team"},
}

// weightApp starts the app with an admin signed in and returns the pages' full URLs.
func weightApp(t *testing.T) (*App, *http.Client, []string) {
	t.Helper()
	app := StartApp(t, "")
	AddUser(t, app.DataDir, "ada", "analytical-engine", true)
	c := opsClient()
	opsLogin(t, c, app.URL, "ada", "analytical-engine")
	_, home := opsDoc(t, c, app.URL+"/")
	topic, ok := home.Find(`a[href^="/topics/"]`).First().Attr("href")
	if !ok {
		t.Fatal("the home page links no topic")
	}
	var urls []string
	for _, p := range mainPages {
		if p.path == "/topics/" {
			p.path = topic
		}
		urls = append(urls, app.URL+p.path)
	}
	return app, c, urls
}

// fetchGzip gets u asking for gzip and returns the bytes as sent and the decoded body.
func fetchGzip(t *testing.T, c *http.Client, u string) (wire int, body []byte, resp *http.Response) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	req.Header.Set("Accept-Encoding", "gzip") // set by hand, so the transport does not decode
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d", u, resp.StatusCode)
	}
	body = raw
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return len(raw), body, resp
}

// cssURL finds url(...) and @import references in a stylesheet.
var cssURL = regexp.MustCompile(`url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)`)

// subresources lists what the page makes the browser fetch: scripts, stylesheets, icons,
// images and frames (links and form targets are not fetched).
func subresources(doc *goquery.Document) []string {
	var out []string
	add := func(sel, attr string) {
		doc.Find(sel).Each(func(_ int, s *goquery.Selection) {
			if v, ok := s.Attr(attr); ok && v != "" {
				out = append(out, v)
			}
		})
	}
	add("script[src]", "src")
	add(`link[rel~="stylesheet"], link[rel~="icon"], link[rel~="preload"], link[rel~="modulepreload"], link[rel~="manifest"]`, "href")
	add("img[src], source[src], iframe[src], video[src], audio[src], embed[src], input[type=image]", "src")
	add("object[data]", "data")
	add("video[poster]", "poster")
	doc.Find("img[srcset], source[srcset]").Each(func(_ int, s *goquery.Selection) {
		for _, part := range strings.Split(s.AttrOr("srcset", ""), ",") {
			if f := strings.Fields(part); len(f) > 0 {
				out = append(out, f[0])
			}
		}
	})
	return out
}

// TestPageWeight: each main page, with the stylesheets, scripts and images it loads, is under
// 100 KB gzip, and it loads nothing from another origin.
func TestPageWeight(t *testing.T) {
	parallelTest(t)
	app, c, urls := weightApp(t)
	base, _ := url.Parse(app.URL)
	t.Logf("%-22s %8s %10s %6s", "page", "HTML gz", "total gz", "files")
	for i, pageURL := range urls {
		name := mainPages[i].name
		wire, body, resp := fetchGzip(t, c, pageURL)
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || strings.Contains(csp, "http") || strings.Contains(csp, "*") {
			t.Errorf("%s: CSP %q does not keep loads on this origin", name, csp)
		}
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		total, files := wire, 1
		seen := map[string]bool{}
		queue := subresources(doc)
		from := map[string]string{} // resource → the file that referenced it, for CSS urls
		for len(queue) > 0 {
			ref := queue[0]
			queue = queue[1:]
			parent := pageURL
			if p, ok := from[ref]; ok {
				parent = p
			}
			pu, _ := url.Parse(parent)
			u, err := pu.Parse(ref)
			if err != nil {
				t.Errorf("%s: bad resource URL %q", name, ref)
				continue
			}
			if u.Scheme == "data" {
				continue // inline, already counted in its file
			}
			if u.Host != base.Host {
				t.Errorf("%s: loads %s from another origin", name, u)
				continue
			}
			if seen[u.String()] {
				continue
			}
			seen[u.String()] = true
			n, b, _ := fetchGzip(t, c, u.String())
			total += n
			files++
			if strings.HasSuffix(u.Path, ".css") {
				for _, m := range cssURL.FindAllStringSubmatch(string(b), -1) {
					r := m[1] + m[2]
					from[r] = u.String()
					queue = append(queue, r)
				}
			}
		}
		t.Logf("%-22s %7.1fK %9.1fK %6d", name, float64(wire)/1024, float64(total)/1024, files)
		if total >= maxPageWeight {
			t.Errorf("%s weighs %.1f KB gzip with its files, over the %d KB budget", name, float64(total)/1024, maxPageWeight>>10)
		}
	}
}

// TestNoThirdPartyRequests loads every main page in Chromium and records each request the
// browser makes, scripts' own fetches included: all stay on the app's origin.
func TestNoThirdPartyRequests(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "TestPageWeight checks each page's CSP and the origin of every file it references")
	app, _, urls := weightApp(t)
	ctx := Browser(t)
	var mu sync.Mutex
	var requests []string
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	Login(ctx, t, app.URL, "ada", "analytical-engine")
	for i, u := range urls {
		mu.Lock()
		start := len(requests)
		mu.Unlock()
		if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
			t.Fatalf("%s: %v", mainPages[i].name, err)
		}
		mu.Lock()
		got := append([]string(nil), requests[start:]...)
		mu.Unlock()
		if !slices.Contains(got, u) {
			t.Fatalf("%s: the page's own request was not seen (%v): is the network domain on?", mainPages[i].name, got)
		}
		var off []string
		for _, r := range got {
			if !strings.HasPrefix(r, app.URL+"/") && !strings.HasPrefix(r, "data:") {
				off = append(off, r)
			}
		}
		if len(off) > 0 {
			t.Errorf("%s: requests to other origins: %v", mainPages[i].name, off)
		}
		t.Logf("%-22s %d requests, all on %s", mainPages[i].name, len(got), app.URL)
	}
}
