// Package e2e drives the real rehearse binary, on a real port with a real SQLite file, through a
// real headless Chromium. Locally the tests skip when no Chromium is installed; under CI
// (CI=true) a missing browser is a failure.
package e2e

import (
	"bufio"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// chromiumPath is the browser the tests drive: Debian's full /usr/bin/chromium, the browser our
// users run, unless $REHEARSE_CHROMIUM names another. For quick local runs,
// REHEARSE_CHROMIUM=/usr/bin/chromium-headless-shell (the same Chromium source and version built
// without the desktop browser around it) spends about half the CPU per page.
var chromiumPath = func() string {
	if p := os.Getenv("REHEARSE_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}()

var binPath string // built once in TestMain

// fullRun reports whether the exhaustive checks run too: accessibility in every size and theme,
// the long crash loops, the attack measurement. ./scripts/test, and so CI, sets
// REHEARSE_E2E_FULL=1; a plain `go test ./...` runs one of each kind of check.
func fullRun() bool { return os.Getenv("REHEARSE_E2E_FULL") != "" }

// fullOnly skips a browser test outside a full run. A plain run keeps a real-Chromium test of
// each capability (the first steps, study, a simulation figure, recording with a microphone,
// a mock interview, the accessibility of every page); these ones go further, and why says
// which plain test covers their ground. The browser work is what a plain run's time goes on.
func fullOnly(t *testing.T, why string) {
	t.Helper()
	if !fullRun() {
		t.Skipf("in the full run only (REHEARSE_E2E_FULL=1, as ./scripts/test sets): %s", why)
	}
}

// e2eParallel is how many tests run at once unless -parallel says otherwise. Each has its own
// server and data dir, and part of their time is spent waiting on a browser, a server or a
// real clock, so more run at once than there are cores (go test's default); but not many
// more: beyond this the tests only slow each other down (each CPU second does less work on a
// crowded machine) and the attack test's hashing runs past the server's wait for a slot.
const e2eParallel = 5

func TestMain(m *testing.M) {
	flag.Parse()
	// The limit applies in parallelTest (sched_test.go), which picks which test starts next;
	// go test's own queue must let every test through to it.
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			fmt.Sscan(f.Value.String(), &slots.limit)
		}
	})
	slots.limit = max(slots.limit, 1)
	flag.Set("test.parallel", "10000")
	var err error
	if binPath, err = buildBinary(); err != nil {
		fmt.Fprintln(os.Stderr, "build rehearse:", err)
		os.Exit(1)
	}
	code := m.Run()
	shared.close()
	os.RemoveAll(filepath.Dir(binPath))
	os.Exit(code)
}

// buildBinary builds cmd/rehearse into a directory of the user's cache that is the same for
// every run from this checkout, so that go build finds the binary up to date and skips the link
// (about 1.5 s of CPU before any test starts) when nothing changed since the last run. The run
// executes a copy of its own, which a later build cannot overwrite under it.
func buildBinary() (string, error) {
	src, err := filepath.Abs("../cmd/rehearse")
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "rehearse-e2e", fmt.Sprintf("%x", sha256.Sum256([]byte(src)))[:16])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Two runs from one checkout at once would write the same file: take turns.
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", err
	}
	defer lock.Close()
	unlock, err := lockFile(lock) // lock_unix_test.go
	if err != nil {
		return "", err
	}
	defer unlock()
	built := filepath.Join(dir, "rehearse")
	build := exec.Command("go", "build", "-o", built, src)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", err
	}
	run, err := os.MkdirTemp("", "rehearse-e2e-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(run, "rehearse")
	in, err := os.Open(built)
	if err != nil {
		return "", err
	}
	defer in.Close()
	out, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return "", err
	}
	return bin, out.Close()
}

// App is one running rehearse process.
type App struct {
	URL     string
	DataDir string
	cmd     *exec.Cmd
}

var listenRE = regexp.MustCompile(`Rehearse is running at (http://\S+)`)

// StartApp runs the binary on 127.0.0.1:0 with a fresh data dir (or dataDir if given) and waits
// until it prints its URL. extraArgs are appended to `rehearse serve`.
func StartApp(t testing.TB, dataDir string, extraArgs ...string) *App {
	t.Helper()
	if dataDir == "" {
		dataDir = t.TempDir()
	}
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dataDir}, extraArgs...)
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), "REHEARSE_LOG_LEVEL=warn")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	app := &App{DataDir: dataDir, cmd: cmd}
	t.Cleanup(app.Stop)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := listenRE.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case app.URL = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("rehearse did not start within 30 s")
	}
	return app
}

// Stop ends the process with SIGTERM (graceful) and waits for it.
func (a *App) Stop() {
	if a.cmd.Process == nil || a.cmd.ProcessState != nil {
		return
	}
	a.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { a.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		a.cmd.Process.Kill()
		<-done
	}
}

// AddUser creates an account in the data dir's database as `rehearse user add` does (it opens
// the database with the store, so a fresh directory is migrated first), but hashes the password
// with auth.Cheap: signing in then costs microseconds rather than a production argon2 run,
// about 0.2 s of CPU, and the suite signs in dozens of times. The server checks a password with
// the parameters written in its stored hash, so the login path is the same. The raters
// (seedRaters) are made with the CLI itself, with production parameters.
func AddUser(t testing.TB, dataDir, name, password string, admin bool) {
	t.Helper()
	hash, err := auth.Cheap.Hash(password)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dataDir, "rehearse.db"), nil)
	if err != nil {
		t.Fatalf("open the database to add %s: %v", name, err)
	}
	defer db.Close()
	role := store.RoleMember
	if admin {
		role = store.RoleAdmin
	}
	if _, err := db.CreateUser(ctx, name, hash, role, time.Now()); err != nil {
		t.Fatalf("add %s: %v", name, err)
	}
}

// addUser creates an account with the CLI, as an admin would.
func addUser(dataDir, name, password string, admin bool) error {
	args := []string{"user", "add", "--data", dataDir}
	if admin {
		args = append(args, "--admin")
	}
	args = append(args, name)
	cmd := exec.Command(binPath, args...)
	cmd.Stdin = strings.NewReader(password + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("user add %s: %v\n%s", name, err, out)
	}
	return nil
}

// Browser returns a chromedp context for a tab of headless Chromium with a desktop viewport.
// Without extra options the tab is in a browser context of its own (its own cookies, storage
// and cache, as a fresh profile would have) in one Chromium shared by the package, which saves
// starting a browser per test; that Chromium has the fake microphone (micOptions). Extra
// options (no microphone, say) start a Chromium of its own, without the fake microphone. The
// test skips locally when Chromium is absent, and fails under CI.
func Browser(t testing.TB, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: %s is missing; .ci/run must install Debian's chromium", chromiumPath)
		}
		t.Skipf("skipping browser test: %s not found (apt-get install chromium)", chromiumPath)
	}
	var parent context.Context
	var opts []chromedp.ContextOption
	if len(extra) == 0 {
		browser, err := shared.get()
		if err != nil {
			t.Fatalf("start chromium: %v", err)
		}
		parent, opts = browser, []chromedp.ContextOption{chromedp.WithNewBrowserContext()}
	} else {
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(chromiumOptions(t.TempDir()), extra...)...)
		t.Cleanup(cancelA)
		parent = actx
	}
	ctx, cancelC := chromedp.NewContext(parent, opts...)
	ctx, cancelT := context.WithTimeout(ctx, 6*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC() })
	openTab(t, ctx) // and starts a browser of its own
	return ctx
}

// NewTab opens another tab beside ctx's, in the same browser context: it shares the cookies,
// as a second tab of one person's browser does.
func NewTab(t testing.TB, ctx context.Context) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	openTab(t, tab)
	return tab
}

func openTab(t testing.TB, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a chromium tab: %v", err)
	}
	// Tabs of one browser take turns at having the focus; typed keys go to the focused one.
	// Each test's tab acts as the focused page of its window, as a person's would be.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatalf("emulate focus: %v", err)
	}
}

// chromiumOptions are the flags every browser of these tests runs with: the three the project's
// standards name (--no-sandbox --disable-gpu --disable-background-networking), then flags that
// keep a page that is not in front (tests share one Chromium) running its timers and media at
// full speed, then flags that turn off parts of the desktop browser no test looks at. Those last
// cut the browser's CPU by about a third on a page load: the omnibox popup pages (WebUI, in a
// renderer of their own, updated on every navigation), extensions, translation, the media
// router, hint and certificate downloads, crash reports, audio output.
func chromiumOptions(userDataDir string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(userDataDir),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-ipc-flooding-protection", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-features", "WebUIOmniboxPopup,WebUIOmniboxAimPopup,Translate,OptimizationHints,"+
			"OptimizationGuideModelDownloading,OptimizationHintsFetching,OptimizationTargetPrediction,MediaRouter,"+
			"DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,"+
			"LensOverlay,GlobalMediaControls,BackForwardCache"),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-component-extensions-with-background-pages", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-client-side-phishing-detection", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("disable-hang-monitor", true),
		chromedp.Flag("metrics-recording-only", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.Flag("use-mock-keychain", true),
		chromedp.Flag("mute-audio", true),
		chromedp.WindowSize(1200, 900),
	}
}

// shared is the package's one plain Chromium, started by the first test that asks for it.
var shared sharedBrowser

type sharedBrowser struct {
	once   sync.Once
	ctx    context.Context
	err    error
	cancel func()
}

func (b *sharedBrowser) get() (context.Context, error) {
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "rehearse-e2e-chromium")
		if err != nil {
			b.err = err
			return
		}
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(chromiumOptions(dir), micOptions()...)...)
		ctx, cancelC := chromedp.NewContext(actx)
		b.ctx, b.cancel = ctx, func() { cancelC(); cancelA(); os.RemoveAll(dir) }
		b.err = chromedp.Do(ctx) // starts the browser
	})
	return b.ctx, b.err
}

func (b *sharedBrowser) close() {
	if b.cancel != nil {
		b.cancel()
	}
}

// poll is how often a wait (WaitVisible, WaitNotPresent) looks again. chromedp's default, 5 ms,
// costs the browser about a quarter of a core for each second a wait lasts (a 5 s wait on the
// mock's clock: some 1.2 s of CPU), and the waits last longer the busier the machine is.
var poll = chromedp.RetryInterval(20 * time.Millisecond)

// Login signs in through the login form.
func Login(ctx context.Context, t testing.TB, base, name, password string) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/login"),
		chromedp.WaitVisible(chromedp.ID("username"), poll),
		chromedp.SendKeys(chromedp.ID("username"), name),
		chromedp.SendKeys(chromedp.ID("password"), password),
		chromedp.Click(chromedp.ID("login-submit")),
		chromedp.WaitVisible(chromedp.ID("logout"), poll),
	)
	if err != nil {
		t.Fatalf("login as %s: %v", name, err)
	}
}

// Eval evaluates a JavaScript expression and returns its value, failing the test on error.
func Eval[T any](ctx context.Context, t testing.TB, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// Get fetches a URL without the browser (for quick status checks).
func Get(t testing.TB, url string) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
