package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/hear"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/transcribe"
)

// withVoice gives the test server a running background checker built from wc.
func (e *testEnv) withVoice(wc hear.WorkerConfig) *hear.Worker {
	wc.Store, wc.Deck = e.db, e.srv.deck
	w := hear.NewWorker(wc)
	w.Start(context.Background())
	e.t.Cleanup(w.Close)
	e.srv.cfg.Voice = w
	return w
}

func remote(u string) *transcribe.Client { return &transcribe.Client{URL: u} }

// With --transcribe-url, a spoken mock answer is transcribed in the background (by a fake
// endpoint served here) and the transcript ticks the points it makes, like typed text.
func TestTranscriptFeedsTheMockCheck(t *testing.T) {
	t.Parallel()
	var said atomic.Value
	said.Store("")
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, _, err := r.FormFile("file"); err != nil || r.URL.Path != "/v1/audio/transcriptions" || r.FormValue("prompt") == "" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		io.WriteString(w, `{"text": `+strconv.Quote(said.Load().(string))+`}`)
	}))
	defer fake.Close()
	e := newEnv(t, Config{})
	voice := e.withVoice(hear.WorkerConfig{Remote: remote(fake.URL + "/v1/audio/transcriptions")})
	c := e.signedIn("ada", store.RoleMember)
	base := startMock(t, e, c, url.Values{"n": {"1"}, "seed": {"4"}, "depth": {"deeper"}, "clock": {"soft"}})
	_, doc := e.get(c, base)
	card := shownCard(t, e, doc)
	point := interview.Points(card, "deeper")[0]
	said.Store(card.Answer[point].Text())
	sid := strings.TrimPrefix(base, "/mock/")
	if status, out := e.upload(c, "card="+card.ID+"&mode=mock&session="+sid+"&pos=0&spoken_ms=9000&wall_ms=10000", tinyWAV(100)); status != http.StatusCreated {
		t.Fatalf("upload: %d %v", status, out)
	}
	voice.Wait()
	mustRedirect(t, e, c, base+"/answer", url.Values{"pos": {"0"}}, base) // nothing typed
	_, doc = e.get(c, base)
	if got := doc.Find("#transcript").Text(); !strings.Contains(got, card.Answer[point].Text()[:20]) {
		t.Fatalf("transcript on the review: %q", got)
	}
	if _, ok := doc.Find("#covered-" + strconv.Itoa(point)).Attr("checked"); !ok {
		t.Fatalf("the transcribed point is not ticked: %s", doc.Find("#bullets").Text())
	}
}

// A failing endpoint leaves the recording intact, marked "transcript unavailable".
func TestTranscriptUnavailable(t *testing.T) {
	t.Parallel()
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "model not loaded", http.StatusInternalServerError)
	}))
	defer down.Close()
	e := newEnv(t, Config{})
	e.srv.decks = StaticDeck{studyDeck(t, "a:x:one")}
	voice := e.withVoice(hear.WorkerConfig{Remote: remote(down.URL + "/v1/audio/transcriptions")})
	c := e.signedIn("sam", store.RoleMember)
	status, out := e.upload(c, "card=one&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(10))
	if status != http.StatusCreated {
		t.Fatalf("upload: %d %v", status, out)
	}
	voice.Wait()
	_, doc := e.get(c, "/cards/one")
	if !strings.Contains(doc.Find("#recordings").Text(), "transcript unavailable") {
		t.Fatalf("card page: %q", doc.Find("#recordings").Text())
	}
	if resp, _ := e.get(c, out["url"].(string)); resp.StatusCode != http.StatusOK {
		t.Fatalf("the recording itself: %d", resp.StatusCode)
	}
}

// With pocketsphinx installed, a study recording of a card's basics answer is checked in the
// background and GET /recordings/{id}/check reports the key points heard.
func TestRecordingCheckedOffline(t *testing.T) {
	t.Parallel()
	r, err := hear.Find()
	if err == nil {
		_, err = exec.LookPath("espeak-ng")
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	d, err := deckload.Load(content.FS, false)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Config{})
	e.srv.decks = StaticDeck{d}
	voice := e.withVoice(hear.WorkerConfig{Recognizer: &r})
	c := e.signedIn("ada", store.RoleMember)
	card, _ := d.Card("max-poll-interval")
	wav := filepath.Join(t.TempDir(), "a.wav")
	if out, err := exec.Command("espeak-ng", "-w", wav, card.Basics.Text()).CombinedOutput(); err != nil {
		t.Fatalf("espeak-ng: %v %s", err, out)
	}
	audio, _ := os.ReadFile(wav)
	status, out := e.upload(c, "card=max-poll-interval&mode=study&depth=basics&spoken_ms=15000&wall_ms=16000", audio)
	if status != http.StatusCreated || out["status"] != "pending" {
		t.Fatalf("upload: %d %v", status, out)
	}
	voice.Wait()
	var got struct {
		Status string `json:"status"`
		Points []struct {
			Bullet int  `json:"bullet"`
			Heard  bool `json:"heard"`
		} `json:"points"`
		Heard      int    `json:"heard"`
		Transcript string `json:"transcript"`
	}
	resp, err := c.Get(e.ts.URL + out["check_url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	if got.Status != "done" || len(got.Points) != len(interview.Points(card, "basics")) || 2*got.Heard < len(got.Points) {
		t.Fatalf("check: %+v", got)
	}
	// Someone else asking for it gets 404.
	other := e.signedIn("eve", store.RoleMember)
	if resp, _ := e.get(other, out["check_url"].(string)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("another user's check: %d", resp.StatusCode)
	}
}

// Without a checker the upload is kept and says exactly what to install; a recording longer
// than hear.MaxAudio is kept and marked not checked, saying why.
func TestRecordingNotCheckedSaysWhy(t *testing.T) {
	t.Parallel()
	e, c, _ := studyEnv(t, "a:x:one")
	status, out := e.upload(c, "card=one&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(10))
	if status != http.StatusCreated || out["status"] != "none" || !strings.Contains(out["note"].(string), "apt-get install pocketsphinx pocketsphinx-en-us ffmpeg") {
		t.Fatalf("upload without a checker: %d %v", status, out)
	}
	e.withVoice(hear.WorkerConfig{Remote: remote("http://127.0.0.1:1/v1/audio/transcriptions")})
	status, out = e.upload(c, "card=one&mode=study&spoken_ms=1000&wall_ms="+strconv.Itoa(int(hear.MaxAudio.Milliseconds())+1000), tinyWAV(10))
	if status != http.StatusCreated || out["status"] != "unavailable" || !strings.Contains(out["note"].(string), "longer than 5 minutes") {
		t.Fatalf("a long upload: %d %v", status, out)
	}
}

// Issue 35 #8: a user's recordings stop at the quota with a message saying what to do, and
// uploads in quick succession stop at the rate limit; other users are unaffected.
func TestRecordingQuotaAndRate(t *testing.T) {
	t.Parallel()
	e, c, _ := studyEnv(t, "a:x:one", "a:x:two")
	e.srv.cfg.RecordingQuota = 50_000
	if status, out := e.upload(c, "card=one&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(20_000)); status != http.StatusCreated {
		t.Fatalf("first upload: %d %v", status, out)
	}
	status, out := e.upload(c, "card=two&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(20_000))
	if status != http.StatusInsufficientStorage || !strings.Contains(out["error"].(string), "Your recordings are full") {
		t.Fatalf("over the quota: %d %v", status, out)
	}
	other := e.signedIn("bob", store.RoleMember)
	if status, out := e.upload(other, "card=two&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(20_000)); status != http.StatusCreated {
		t.Fatalf("another user: %d %v", status, out)
	}
	e.srv.cfg.RecordingQuota = -1
	n := 0
	for ; n < 100; n++ {
		status, out = e.upload(c, "card=one&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(10))
		if status != http.StatusCreated {
			break
		}
	}
	if status != http.StatusTooManyRequests || n >= hear.UploadsPerWindow || !strings.Contains(out["error"].(string), "Too many recordings") {
		t.Fatalf("after %d quick uploads: %d %v", n, status, out)
	}
	e.now = e.now.Add(hear.UploadWindow)
	if status, out := e.upload(c, "card=one&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(10)); status != http.StatusCreated {
		t.Fatalf("after the window: %d %v", status, out)
	}
}

// /stats measures speaking: recordings against their targets, key points heard per week and
// readiness per topic.
func TestStatsMeasureSpeaking(t *testing.T) {
	t.Parallel()
	e, c, _ := studyEnv(t, "a:x:one", "a:x:two")
	_, doc := e.get(c, "/stats")
	if doc.Find("#speaking-none").Length() != 1 {
		t.Fatal("no recordings: the page should say how to start")
	}
	for _, spoken := range []string{"19000", "40000"} { // on time, then twice the 20 s target
		status, out := e.upload(c, "card=one&mode=study&depth=basics&spoken_ms="+spoken+"&wall_ms=41000", tinyWAV(10))
		if status != http.StatusCreated {
			t.Fatalf("upload: %d %v", status, out)
		}
		id := int64(out["id"].(float64))
		if err := e.db.SetCheck(context.Background(), id, store.Recording{TranscriptStatus: "done", Points: []int{0, 1}, Heard: []int{0}}); err != nil {
			t.Fatal(err)
		}
	}
	_, doc = e.get(c, "/stats")
	if got := doc.Find("#speaking-on-time").Text(); got != "50 % (1 of 2)" {
		t.Errorf("on time: %q", got)
	}
	if got := doc.Find("#heard-weeks .bar-value").Text(); got != "50" || doc.Find("#heard-weeks .bar-fill").AttrOr("height", "") != "40.0" {
		t.Errorf("key points heard this week: %q", got)
	}
	row := doc.Find(`#readiness tr[data-topic]`).First()
	if !strings.Contains(row.Text(), "1 of 2") || !strings.Contains(doc.Find("#readiness-rule").Text(), "recall × speaking") {
		t.Errorf("readiness row %q", row.Text())
	}
}
