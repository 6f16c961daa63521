package e2e

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Signed-in card and study pages go out as gzip streams spliced from parts compressed once
// (internal/gzpage). Chromium must decode them to exactly the bytes a client without gzip gets.
func TestCardStudyGzipSplicedPagesDecodeInChromium(t *testing.T) {
	t.Parallel()
	app := StartApp(t, "")
	AddUser(t, app.DataDir, "gz", "gzip-password-1", false)
	ctx := Browser(t)
	Login(ctx, t, app.URL, "gz", "gzip-password-1")

	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.PostForm(app.URL+"/login", url.Values{"username": {"gz"}, "password": {"gzip-password-1"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	fetch := func(path, enc string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", app.URL+path, nil)
		req.Header.Set("Accept-Encoding", enc) // set by hand: the transport then leaves the body alone
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}

	const card = "connect-eager-rebalancing"
	// A pinned, revealed study card shown a second ago renders the same on every request.
	shown := time.Now().Add(-time.Second).UnixMilli()
	for _, path := range []string{"/cards/" + card, "/cards/" + card + "?depth=deeper",
		fmt.Sprintf("/study?card=%s&reveal=1&shown_at=%d", card, shown)} {
		_, plain := fetch(path, "identity")
		resp, gz := fetch(path, "gzip")
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: Content-Encoding %q, want gzip", path, resp.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%s: Go's gzip reader: err %v, equal %v", path, err, bytes.Equal(got, plain))
		}
		// The browser asks with gzip, deflate, br, zstd and decodes the stream itself.
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](
			fmt.Sprintf(`fetch(%q, {cache: "no-store"}).then(r => r.text())`, path), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: Chromium fetch: %v", path, err)
		}
		if text != string(plain) {
			t.Fatalf("%s: Chromium decoded %d bytes, the plain page has %d", path, len(text), len(plain))
		}
	}
	// And a navigation renders the page from the spliced stream.
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/cards/"+card), chromedp.WaitVisible(chromedp.ID("simulation"), poll)); err != nil {
		t.Fatalf("card page in Chromium: %v", err)
	}
	if q := Eval[string](ctx, t, `document.getElementById("question").textContent`); q == "" {
		t.Fatal("card page in Chromium shows no question")
	}
}
