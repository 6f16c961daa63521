package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// heardCard is the card whose basics answer the fake microphone speaks.
const heardCard = "max-poll-interval"

// The study loop as the issue asks: on /study, r before the reveal records an unaided answer
// from Chromium's fake microphone (the card's basics answer spoken by espeak-ng); pocketsphinx
// checks it in the background; after the reveal each key point of the tier carries data-heard,
// at least half of them "true", without a reload; the recording plays back from the server
// with its length known, and seeks.
func TestVoiceHeardInStudy(t *testing.T) {
	parallelTest(t)
	for _, p := range []string{"pocketsphinx_continuous", "ffmpeg", "espeak-ng", "sox"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("CI: %s is missing; .ci/run installs it", p)
			}
			t.Skipf("%s is not installed", p)
		}
	}
	// The answer as a WAV for the fake microphone, padded with silence as speech.wav is.
	tmp := t.TempDir()
	raw, wav := filepath.Join(tmp, "raw.wav"), filepath.Join(tmp, "answer.wav")
	text := "The poll interval is the longest a consumer may go between polls: five minutes by default. " +
		"Heartbeats run on a background thread, so this is what catches a consumer that is alive but stuck. " +
		"Exceed it and the consumer leaves the group, its partitions move, and its next commit fails."
	for _, cmd := range [][]string{{"espeak-ng", "-v", "en", "-s", "150", "-w", raw, text}, {"sox", raw, "-r", "16000", wav, "pad", "0.5", "1.5"}} {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v %s", cmd[0], err, out)
		}
	}
	out, err := exec.Command("soxi", "-D", wav).Output()
	if err != nil {
		t.Fatal(err)
	}
	length, err := time.ParseDuration(strings.TrimSpace(string(out)) + "s")
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	AddUser(t, dir, "hal", "speak-and-be-heard", false)
	app := StartApp(t, dir)
	ctx := Browser(t, chromedp.Flag("use-fake-device-for-media-stream", true), chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-file-for-fake-audio-capture", wav), chromedp.Flag("autoplay-policy", "no-user-gesture-required"))
	Login(ctx, t, app.URL, "hal", "speak-and-be-heard")
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/study?card="+heardCard), chromedp.WaitVisible(chromedp.ID("reveal"), poll)); err != nil {
		t.Fatal(err)
	}
	if got := Eval[string](ctx, t, `document.querySelector('.study-card').dataset.cardId`); got != heardCard {
		t.Fatalf("data-card-id = %q", got)
	}
	// r before the reveal: the answer is still hidden while recording.
	if err := chromedp.Do(ctx, chromedp.KeyEvent("r"), chromedp.WaitVisible(chromedp.CSS(`#recorder [data-action=stop]`), poll)); err != nil {
		t.Fatalf("r before the reveal: %v (status %q)", err, Eval[string](ctx, t, `document.getElementById('rec-status').textContent`))
	}
	if !Eval[bool](ctx, t, `document.getElementById('study-answer').hidden`) {
		t.Fatal("the answer was shown while recording")
	}
	if err := chromedp.Do(ctx, chromedp.Sleep(length), chromedp.KeyEvent("r"),
		chromedp.WaitVisible(chromedp.CSS(`#recorder[data-recording-id]`), poll)); err != nil {
		t.Fatalf("stop: %v (status %q)", err, Eval[string](ctx, t, `document.getElementById('rec-status').textContent`))
	}
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.ID("key-points"), poll),
		chromedp.WaitVisible(chromedp.CSS(`#key-points li[data-heard]`), chromedp.RetryInterval(200*time.Millisecond))); err != nil {
		t.Fatalf("key points never marked: %v (summary %q)", err, Eval[string](ctx, t, `document.getElementById('heard-summary').textContent`))
	}
	points := Eval[int](ctx, t, `document.querySelectorAll('#key-points li[data-point]').length`)
	marked := Eval[int](ctx, t, `document.querySelectorAll('#key-points li[data-heard]').length`)
	heard := Eval[int](ctx, t, `document.querySelectorAll('#key-points li[data-heard=true]').length`)
	t.Logf("heard %d of %d key points (%s); marked %v after the reveal; transcript: %s", heard, points,
		Eval[string](ctx, t, `document.getElementById('heard-summary').textContent`), time.Since(start).Round(100*time.Millisecond),
		Eval[string](ctx, t, `document.querySelector('#heard-transcript p').textContent`))
	if points < 2 || marked != points || 2*heard < points {
		t.Fatalf("heard %d of %d points (%d marked), want at least half", heard, points, marked)
	}
	// The recording from the server: its duration is known and it seeks.
	id := Eval[string](ctx, t, `document.getElementById('recorder').dataset.recordingId`)
	got := awaitJS[float64](ctx, t, `new Promise((ok, bad) => {
		const a = new Audio('/recordings/`+id+`');
		a.preload = 'auto';
		a.addEventListener('error', () => bad('error ' + (a.error && a.error.code)));
		a.addEventListener('loadedmetadata', () => {
			if (!isFinite(a.duration)) { bad('duration ' + a.duration); return; }
			a.addEventListener('seeked', () => ok(a.duration), { once: true });
			a.currentTime = a.duration / 2;
		});
	})`)
	if got < length.Seconds()*0.8 || got > length.Seconds()*1.5 {
		t.Fatalf("the player's duration is %.1f s for %.1f s recorded", got, length.Seconds())
	}
	screenshots(ctx, t, "study-heard")
	if os.Getenv("REHEARSE_SHOTS") == "" {
		return
	}
	// For the screenshots: a spoken mock answer's review and summary, and the progress page.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("rate-3")), chromedp.WaitNotPresent(chromedp.CSS(`#study[data-card="`+heardCard+`"]`), poll),
		chromedp.Navigate(app.URL+"/mock/new?seed=11&n=1&clock=soft&depth=basics&followups=0"),
		chromedp.WaitVisible(chromedp.ID("mock-start"), poll), chromedp.Click(chromedp.ID("mock-start")),
		chromedp.WaitVisible(chromedp.ID("rec-button"), poll)); err != nil {
		t.Fatalf("start mock: %v", err)
	}
	record(ctx, t, length)
	if err := chromedp.Do(ctx, chromedp.Sleep(20*time.Second), chromedp.Click(chromedp.ID("answer-submit")), chromedp.WaitVisible(chromedp.ID("mock-review"), poll)); err != nil {
		t.Fatalf("mock review: %v", err)
	}
	screenshots(ctx, t, "mock-review")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("rate-3")), chromedp.WaitVisible(chromedp.ID("summary-table"), poll)); err != nil {
		t.Fatalf("mock summary: %v", err)
	}
	screenshots(ctx, t, "mock-summary")
	if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/stats"), chromedp.WaitVisible(chromedp.ID("speaking"), poll)); err != nil {
		t.Fatalf("stats: %v", err)
	}
	screenshots(ctx, t, "progress")
}
