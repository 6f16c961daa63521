package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/store"
)

// With --transcribe-url, a spoken mock answer is transcribed in the background (by a fake
// endpoint served here) and the transcript ticks the points it makes, like typed text.
func TestTranscriptFeedsTheMockCheck(t *testing.T) {
	t.Parallel()
	var said atomic.Value
	said.Store("")
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, _, err := r.FormFile("file"); err != nil || r.URL.Path != "/v1/audio/transcriptions" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		io.WriteString(w, `{"text": `+strconv.Quote(said.Load().(string))+`}`)
	}))
	defer fake.Close()
	e := newEnv(t, Config{TranscribeURL: fake.URL + "/v1/audio/transcriptions"})
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
	e.srv.voice.wait()
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
	e := newEnv(t, Config{TranscribeURL: down.URL + "/v1/audio/transcriptions"})
	e.srv.decks = StaticDeck{studyDeck(t, "a:x:one")}
	c := e.signedIn("sam", store.RoleMember)
	status, out := e.upload(c, "card=one&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(10))
	if status != http.StatusCreated {
		t.Fatalf("upload: %d %v", status, out)
	}
	e.srv.voice.wait()
	_, doc := e.get(c, "/cards/one")
	if !strings.Contains(doc.Find("#recordings").Text(), "transcript unavailable") {
		t.Fatalf("card page: %q", doc.Find("#recordings").Text())
	}
	if resp, _ := e.get(c, out["url"].(string)); resp.StatusCode != http.StatusOK {
		t.Fatalf("the recording itself: %d", resp.StatusCode)
	}
}
