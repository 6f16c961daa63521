package e2e

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// testdata/speech.wav is our own sentence spoken by espeak-ng, padded with silence:
//
//	espeak-ng -v en -s 150 -w raw.wav "Cooperative rebalancing pauses only the partitions that move."
//	sox raw.wav -r 16000 speech.wav pad 0.5 1.5
//
// Its voiced length, keeping 0.3 s of each longer silence as the page's hang-over does:
//
//	sox speech.wav voiced.wav silence -l 1 0.05 1% -1 0.3 1% && soxi -D voiced.wav   → 3.897500
//	soxi -D speech.wav                                                                  → 6.292875
const (
	speechFile   = "testdata/speech.wav"
	speechVoiced = 3898 * time.Millisecond
	speechLength = 6293 * time.Millisecond // Chromium loops the file: one loop holds all its speech
)

// micOptions give the package's shared Chromium a fake microphone that plays speech.wav in a
// loop to a page that asks for one, and let pages play audio without a click. Other pages do
// not touch the device, so one Chromium serves every test.
func micOptions() []chromedp.ExecAllocatorOption {
	wav, err := filepath.Abs(speechFile)
	if err != nil {
		panic(err)
	}
	return []chromedp.ExecAllocatorOption{
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-audio-capture", wav),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
	}
}

// awaitJS evaluates an expression that returns a promise and waits for its value.
func awaitJS[T any](ctx context.Context, t *testing.T, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// record presses record, lets the fake microphone play for d, presses stop and waits for the
// upload. It returns the measured spoken time and how long the page recorded (more than d when
// a busy machine delays the clicks), the upload latency and the size.
func record(ctx context.Context, t *testing.T, d time.Duration) (spoken, wall time.Duration, uploadMS, size int) {
	t.Helper()
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#recorder [data-action=record]`), poll),
		chromedp.Click(chromedp.CSS(`#recorder [data-action=record]`)),
		chromedp.WaitVisible(chromedp.CSS(`#recorder [data-action=stop]`), poll),
		chromedp.Sleep(d),
		chromedp.Click(chromedp.CSS(`#recorder [data-action=stop]`)),
		chromedp.WaitVisible(chromedp.CSS(`#recorder[data-recording-id]`), poll),
	); err != nil {
		t.Fatalf("record: %v (status %q)", err, Eval[string](ctx, t, `document.getElementById('rec-status').textContent`))
	}
	ms := Eval[string](ctx, t, `document.querySelector('#recorder [data-spoken-ms]').dataset.spokenMs`)
	n, _ := strconv.Atoi(ms)
	uploadMS, _ = strconv.Atoi(Eval[string](ctx, t, `document.getElementById('recorder').dataset.uploadMs`))
	size, _ = strconv.Atoi(Eval[string](ctx, t, `document.getElementById('recorder').dataset.bytes`))
	w, _ := strconv.Atoi(Eval[string](ctx, t, `document.getElementById('recorder').dataset.wallMs`))
	return time.Duration(n) * time.Millisecond, time.Duration(w) * time.Millisecond, uploadMS, size
}

// voicedIn is the least and the most speech a recording of length w can hold, whatever the
// loop's phase: each whole loop holds speechVoiced, and the rest r holds at most min(r,
// speechVoiced) and at least what is left of r after all the file's silence.
func voicedIn(w time.Duration) (lo, hi time.Duration) {
	n := w / speechLength
	r := w - n*speechLength
	return n*speechVoiced + max(0, r-(speechLength-speechVoiced)), n*speechVoiced + min(r, speechVoiced)
}

// spokenFits: the measured spoken time is within 20 % of the speech the recording held (exactly
// speechVoiced when it lasted one loop, as asked).
func spokenFits(spoken, wall time.Duration) bool {
	lo, hi := voicedIn(wall)
	return float64(spoken) >= 0.8*float64(lo) && float64(spoken) <= 1.2*float64(hi)
}

// playMS plays an <audio> source and returns the milliseconds until playback has advanced.
const playMS = `(async (src) => {
	const a = src ? new Audio(src) : document.querySelector('[data-playback]');
	const t0 = performance.now();
	await a.play();
	await new Promise(r => { const f = () => { if (a.currentTime > 0) { a.removeEventListener('timeupdate', f); r(); } }; a.addEventListener('timeupdate', f); f(); });
	a.pause();
	return performance.now() - t0;
})`

// Record in study and in a mock (the mock in a full run only) with a fake microphone: the
// measured spoken time is within 20 % of the file's voiced length, playback works at once and
// from the server, the recordings survive a restart, nobody else can fetch them, and deleting
// removes them.
func TestVoiceRecordStudyAndMock(t *testing.T) {
	parallelTest(t)
	dir := t.TempDir()
	AddUser(t, dir, "vic", "say-it-out-loud", false)
	AddUser(t, dir, "ada", "the-admin-here", true)
	app := StartApp(t, dir)
	ctx := Browser(t) // the shared Chromium has the fake microphone
	Login(ctx, t, app.URL, "vic", "say-it-out-loud")

	// The study and the mock recordings are made at once, in two tabs (each records one loop
	// of the file for its whole length). A plain run records in study only: the recorder is
	// the same script, and each recording is CPU in Chromium for its whole length.
	// The two subtests run from goroutines of their own rather than with t.Parallel, which
	// would queue them behind every other test of the package for a -parallel slot.
	mockTab := NewTab(t, ctx)
	var card, studyID, mockID string
	var wg sync.WaitGroup
	wg.Go(func() {
		t.Run("study", func(t *testing.T) { card, studyID = recordInStudy(ctx, t, app.URL) })
	})
	wg.Go(func() {
		t.Run("mock", func(t *testing.T) {
			fullOnly(t, "the study recording runs in a plain run")
			mockID = recordInMock(mockTab, t, app.URL)
		})
	})
	wg.Wait()
	if t.Failed() {
		return
	}
	ids := []string{studyID}
	if mockID != "" {
		ids = append(ids, mockID)
	}

	// A restart keeps the recordings.
	app.Stop()
	app = StartApp(t, dir)
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/mock/history"), chromedp.WaitVisible(chromedp.ID("main"), poll)); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		st := awaitJS[float64](ctx, t, `fetch('/recordings/`+id+`').then(r => r.status)`)
		if st != 200 {
			t.Fatalf("after a restart, recording %s: %v", id, st)
		}
	}
	// Nobody else can fetch them, an admin included.
	admin := httpLogin(t, app.URL, "ada", "the-admin-here")
	for _, id := range ids {
		resp, err := admin.Get(app.URL + "/recordings/" + id)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("the admin fetched recording %s: %d", id, resp.StatusCode)
		}
	}
	// The card page lists the study recording; deleting it there removes it.
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/cards/"+card), chromedp.WaitVisible(chromedp.ID("recording-"+studyID), poll)); err != nil {
		t.Fatalf("card page: %v", err)
	}
	CheckA11y(ctx, t, "card page with recordings")
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#recording-`+studyID+` [data-action=delete-recording]`)),
		chromedp.WaitNotPresent(chromedp.ID("recording-"+studyID), poll)); err != nil {
		t.Fatalf("delete from the card page: %v", err)
	}
	if st := awaitJS[float64](ctx, t, `fetch('/recordings/`+studyID+`').then(r => r.status)`); st != 404 {
		t.Fatalf("deleted recording answers %v", st)
	}
	if os.Getenv("REHEARSE_VOICE_40S") != "" { // figure for the closing note: bytes per 40 s
		if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/study"), chromedp.WaitVisible(chromedp.ID("reveal"), poll),
			chromedp.Click(chromedp.ID("reveal"))); err != nil {
			t.Fatal(err)
		}
		_, _, up, n := record(ctx, t, 40*time.Second)
		t.Logf("40 s recording: %d bytes, upload %d ms", n, up)
	}
}

// recordInStudy reveals a study card, records an answer, checks the measured spoken time and
// both playbacks, and rates the card. It returns the card and the recording.
func recordInStudy(ctx context.Context, t *testing.T, base string) (card, recording string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/study"), chromedp.WaitVisible(chromedp.ID("reveal"), poll),
		chromedp.Click(chromedp.ID("reveal")), chromedp.WaitVisible(chromedp.ID("rec-button"), poll)); err != nil {
		t.Fatalf("reveal: %v", err)
	}
	CheckA11y(ctx, t, "study with recorder")
	card = Eval[string](ctx, t, `document.getElementById('study').dataset.card`)
	spoken, wall, upload, size := record(ctx, t, speechLength)
	if !spokenFits(spoken, wall) {
		lo, hi := voicedIn(wall)
		t.Fatalf("study: measured %v spoken in %v recorded, which held %v to %v of speech", spoken, wall, lo, hi)
	}
	local := awaitJS[float64](ctx, t, playMS+`()`)
	recording = Eval[string](ctx, t, `document.getElementById('recorder').dataset.recordingId`)
	server := awaitJS[float64](ctx, t, playMS+`('/recordings/`+recording+`')`)
	t.Logf("study: spoken %v of %v voiced; upload %d ms, %d bytes for %v recorded; playback local %.0f ms, from the server %.0f ms",
		spoken, speechVoiced, upload, size, wall, local, server)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("rate-3")), chromedp.WaitNotPresent(chromedp.CSS(`#study[data-card="`+card+`"]`), poll)); err != nil {
		t.Fatalf("rate: %v", err)
	}
	return card, recording
}

// recordInMock answers a one-question mock out loud, then Done (which waits for the upload),
// and checks the summary's spoken time. It returns the recording.
func recordInMock(ctx context.Context, t *testing.T, base string) (recording string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/mock/new?seed=11&n=1&clock=soft&depth=basics"),
		chromedp.WaitVisible(chromedp.ID("mock-start"), poll), chromedp.Click(chromedp.ID("mock-start")),
		chromedp.WaitVisible(chromedp.ID("rec-button"), poll)); err != nil {
		t.Fatalf("start mock: %v", err)
	}
	mSpoken, mWall, mUpload, mSize := record(ctx, t, speechLength)
	if !spokenFits(mSpoken, mWall) {
		lo, hi := voicedIn(mWall)
		t.Fatalf("mock: measured %v spoken in %v recorded, which held %v to %v of speech", mSpoken, mWall, lo, hi)
	}
	t.Logf("mock: spoken %v in %v recorded; upload %d ms, %d bytes", mSpoken, mWall, mUpload, mSize)
	recording = Eval[string](ctx, t, `document.getElementById('recorder').dataset.recordingId`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("answer-submit")), chromedp.WaitVisible(chromedp.ID("mock-review"), poll),
		chromedp.Click(chromedp.ID("rate-3")), chromedp.WaitVisible(chromedp.ID("summary-table"), poll)); err != nil {
		t.Fatalf("finish mock: %v", err)
	}
	CheckA11y(ctx, t, "mock summary with a recording")
	summary := Eval[string](ctx, t, `document.querySelector('#row-1 .spoken').dataset.spokenMs`)
	if n, _ := strconv.Atoi(summary); time.Duration(n)*time.Millisecond != mSpoken.Round(time.Millisecond) && n != int(mSpoken.Milliseconds()) {
		t.Fatalf("summary says %s ms spoken, the page measured %v", summary, mSpoken)
	}
	return recording
}

// httpLogin signs in with a plain HTTP client, as another person on another device.
func httpLogin(t *testing.T, base, name, password string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm(base+"/login", url.Values{"username": {name}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login as %s: %d", name, resp.StatusCode)
	}
	return c
}

// Without a microphone the recorder says so, and the card can still be answered.
func TestVoiceWithoutMicrophone(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "TestVoiceRecordStudyAndMock records with a microphone in a plain run")
	dir := t.TempDir()
	AddUser(t, dir, "nomi", "no-microphone-here", false)
	app := StartApp(t, dir)
	// A Chromium of its own, without the fake device (and this machine has no sound card); the
	// permission is granted, so the page meets the missing device rather than a refusal.
	ctx := Browser(t, chromedp.Flag("use-fake-ui-for-media-stream", true))
	Login(ctx, t, app.URL, "nomi", "no-microphone-here")
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/study"), chromedp.WaitVisible(chromedp.ID("reveal"), poll),
		chromedp.Click(chromedp.ID("reveal")), chromedp.WaitVisible(chromedp.ID("rec-button"), poll),
		chromedp.Click(chromedp.ID("rec-button")),
		chromedp.Query(chromedp.CSS(`#rec-status.rec-error`))); err != nil {
		t.Fatalf("no microphone: %v (status %q)", err, Eval[string](ctx, t, `document.getElementById('rec-status').textContent`))
	}
	if msg := Eval[string](ctx, t, `document.getElementById('rec-status').textContent`); !strings.Contains(msg, "No microphone was found") || !strings.Contains(msg, "Typing still works") {
		t.Fatalf("no-microphone message %q", msg)
	}
	if got := Eval[string](ctx, t, `document.getElementById('rec-button').dataset.action`); got != "record" {
		t.Fatalf("button left at %q", got)
	}
	card := Eval[string](ctx, t, `document.getElementById('study').dataset.card`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("rate-3")), chromedp.WaitNotPresent(chromedp.CSS(`#study[data-card="`+card+`"]`), poll)); err != nil {
		t.Fatalf("answering without a microphone: %v", err)
	}
}
