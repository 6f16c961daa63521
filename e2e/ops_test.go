package e2e

import (
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
)

// client is a cookie-keeping HTTP client that does not follow redirects.
func opsClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func opsLogin(t *testing.T, c *http.Client, base, name, password string) {
	t.Helper()
	resp, err := c.PostForm(base+"/login", url.Values{"username": {name}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login as %s: %d", name, resp.StatusCode)
	}
}

func opsDoc(t *testing.T, c *http.Client, u string) (*http.Response, *goquery.Document) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	doc, err := goquery.NewDocumentFromReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, doc
}

// TestBackupRestore: progress recorded on a running server is in a backup taken while it runs;
// the backup, restored into a fresh data dir, serves the same progress.
func TestBackupRestore(t *testing.T) {
	parallelTest(t)
	app := StartApp(t, "")
	AddUser(t, app.DataDir, "ada", "analytical-engine", true)
	c := opsClient()
	opsLogin(t, c, app.URL, "ada", "analytical-engine")

	// Answer the first study card "Good", posting the page's own rating form.
	_, doc := opsDoc(t, c, app.URL+"/study")
	form := doc.Find("#rate-form")
	card := form.Find("input[name=card]").AttrOr("value", "")
	if card == "" {
		t.Fatal("no card to study")
	}
	vals := url.Values{"rating": {"3"}}
	form.Find("input[type=hidden]").Each(func(_ int, s *goquery.Selection) {
		vals.Set(s.AttrOr("name", ""), s.AttrOr("value", ""))
	})
	resp, err := c.PostForm(app.URL+"/study/answer", vals)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d", resp.StatusCode)
	}
	_, doc = opsDoc(t, c, app.URL+"/cards/"+card)
	state := doc.Find("#progress-state").AttrOr("data-state", "")
	if state == "" || state == "new" {
		t.Fatalf("card state after answering = %q", state)
	}

	// Back up while the server runs.
	backup := filepath.Join(t.TempDir(), "rehearse-backup.db")
	out, err := exec.Command(binPath, "backup", "--data", app.DataDir, backup).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "backed up") {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	// A second backup to the same file is refused rather than overwriting it.
	if out, err := exec.Command(binPath, "backup", "--data", app.DataDir, backup).CombinedOutput(); err == nil {
		t.Fatalf("backup over an existing file succeeded:\n%s", out)
	}
	app.Stop()

	// Restore: the backup becomes rehearse.db of a fresh data dir.
	fresh := t.TempDir()
	opsCopy(t, backup, filepath.Join(fresh, "rehearse.db"))
	restored := StartApp(t, fresh)
	c2 := opsClient()
	opsLogin(t, c2, restored.URL, "ada", "analytical-engine")
	_, doc = opsDoc(t, c2, restored.URL+"/cards/"+card)
	if got := doc.Find("#progress-state").AttrOr("data-state", ""); got != state {
		t.Fatalf("restored card state = %q, want %q", got, state)
	}
}

func opsCopy(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func opsFreeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func opsBody(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// opsMetric reads one sample (the line's prefix up to the value) from the metrics listener.
func opsMetric(t *testing.T, metricsURL, prefix string) int {
	t.Helper()
	_, b := opsBody(t, metricsURL)
	for _, line := range strings.Split(b, "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return int(n)
		}
	}
	t.Fatalf("no %q in metrics:\n%s", prefix, b)
	return 0
}

func opsDeckCards(t *testing.T, metricsURL string) int {
	return opsMetric(t, metricsURL, "rehearse_deck_cards ")
}

// opsWaitFor polls until cond holds (a reload is asynchronous to the signal), failing after 20 s.
func opsWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestOpsEndpointsAndSIGHUP: readyz, a separate metrics listener, the healthcheck command, and
// SIGHUP reloading a content directory — and keeping the running deck when the new one is bad.
func TestOpsEndpointsAndSIGHUP(t *testing.T) {
	parallelTest(t)
	dir := t.TempDir()
	sample, err := os.ReadFile("../internal/server/testdata/deck/kafka/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		os.MkdirAll(filepath.Join(dir, "kafka"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "kafka", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sample.md", string(sample))
	maddr := opsFreeAddr(t)
	app := StartApp(t, "", "--content", dir, "--metrics-addr", maddr)
	metricsURL := "http://" + maddr + "/metrics"

	if code, b := opsBody(t, app.URL+"/readyz"); code != 200 || b != "ready\n" {
		t.Fatalf("readyz: %d %q", code, b)
	}
	if code, _ := opsBody(t, app.URL+"/metrics"); code != http.StatusNotFound && code != http.StatusSeeOther {
		t.Fatalf("/metrics on the app listener with --metrics-addr: %d", code)
	}
	if n := opsDeckCards(t, metricsURL); n != 1 {
		t.Fatalf("deck cards = %d, want 1", n)
	}
	hostport := strings.TrimPrefix(app.URL, "http://")
	if out, err := exec.Command(binPath, "healthcheck", "--addr", hostport).CombinedOutput(); err != nil {
		t.Fatalf("healthcheck: %v\n%s", err, out)
	}
	if err := exec.Command(binPath, "healthcheck", "--addr", opsFreeAddr(t)).Run(); err == nil {
		t.Fatal("healthcheck passed with nothing listening")
	}

	// A good new card, then SIGHUP: served without a restart.
	write("second.md", strings.Replace(string(sample), "id: sample-eager", "id: sample-second", 1))
	if err := app.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	opsWaitFor(t, "the reloaded deck", func() bool { return opsDeckCards(t, metricsURL) == 2 })
	if code, _ := opsBody(t, app.URL+"/cards/sample-second"); code != 200 {
		t.Fatalf("reloaded card: %d", code)
	}

	// A broken card: the reload is refused and the running deck keeps serving.
	write("broken.md", "---\nid: broken\n---\nnothing else\n")
	write("third.md", strings.Replace(string(sample), "id: sample-eager", "id: sample-third", 1))
	app.cmd.Process.Signal(syscall.SIGHUP)
	opsWaitFor(t, "the failed reload", func() bool {
		return opsMetric(t, metricsURL, `rehearse_deck_reloads_total{result="failed"} `) == 1
	})
	if n := opsDeckCards(t, metricsURL); n != 2 {
		t.Fatalf("deck cards after a broken reload = %d, want 2", n)
	}
	if code, _ := opsBody(t, app.URL+"/cards/sample-third"); code != http.StatusNotFound {
		t.Fatalf("card from a rejected reload served: %d", code)
	}
	if code, _ := opsBody(t, app.URL+"/readyz"); code != 200 {
		t.Fatalf("readyz after a failed reload: %d", code)
	}
}
