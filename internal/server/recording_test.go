package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/store"
)

// tinyWAV is a valid 8 kHz mono 16-bit WAV of n samples.
func tinyWAV(n int) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+2*n))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(8000), uint32(16000), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(2*n))
	b.Write(make([]byte, 2*n))
	return b.Bytes()
}

func (e *testEnv) upload(c *http.Client, query string, body []byte) (int, map[string]any) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/recordings?"+query, bytes.NewReader(body))
	req.Header.Set("Content-Type", "audio/webm") // a lie on purpose: the content decides
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func TestRecordingUploadPlayDelete(t *testing.T) {
	t.Parallel()
	e, c, uid := studyEnv(t, "a:x:one", "a:x:two")
	wav := tinyWAV(4000)
	status, out := e.upload(c, "card=one&mode=study&depth=solid&spoken_ms=34000&wall_ms=41000", wav)
	if status != http.StatusCreated || out["mime"] != "audio/wav" || out["target_ms"] != 40000.0 || out["spoken_ms"] != 34000.0 {
		t.Fatalf("upload: %d %v", status, out)
	}
	path := out["url"].(string)
	resp, err := c.Get(e.ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Equal(got, wav) || resp.Header.Get("Content-Type") != "audio/wav" {
		t.Fatalf("play: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(got))
	}
	// Nobody else hears it, admins included, and nobody else can delete it.
	for _, other := range []*http.Client{e.signedIn("eve", store.RoleMember), e.signedIn("root", store.RoleAdmin)} {
		if resp, _ := e.get(other, path); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("another user got %d", resp.StatusCode)
		}
		if resp, _ := e.post(other, path+"/delete", nil); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("another user's delete: %d", resp.StatusCode)
		}
	}
	// The card page lists it with its spoken time.
	_, doc := e.get(c, "/cards/one")
	if txt := doc.Find("#recordings").Text(); !strings.Contains(txt, "spoken 34 s of a 40 s target") {
		t.Fatalf("card page recordings: %q", txt)
	}
	// Rating the card with the recording attaches it to the review.
	_, doc = e.get(c, "/study?card=one&reveal=1")
	form := rateForm(t, doc, 3)
	form.Set("recording", strings.TrimPrefix(path, "/recordings/"))
	if resp, _ := e.post(c, "/study/answer", form); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d", resp.StatusCode)
	}
	recs, _ := e.db.CardRecordings(context.Background(), uid, "one")
	hist, _ := e.db.ReviewHistory(context.Background(), uid, "one")
	if len(recs) != 1 || len(hist) != 1 || recs[0].ReviewID != hist[0].ID {
		t.Fatalf("recording not attached: %+v / %+v", recs, hist)
	}
	if resp, _ := e.post(c, path+"/delete", url.Values{"next": {"/cards/one"}}); resp.StatusCode != http.StatusSeeOther ||
		resp.Header.Get("Location") != "/cards/one" {
		t.Fatalf("delete: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := e.get(c, path); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("deleted recording: %d", resp.StatusCode)
	}
}

func TestRecordingBadUploads(t *testing.T) {
	t.Parallel()
	e, c, _ := studyEnv(t, "a:x:one")
	ok := "card=one&mode=study&spoken_ms=1000&wall_ms=2000"
	big := append(tinyWAV(0), make([]byte, maxRecordingBytes)...)
	cases := []struct {
		name, query string
		body        []byte
		status      int
		says        string
	}{
		{"over the cap", ok, big, http.StatusRequestEntityTooLarge, "1 MiB limit"},
		{"not audio", ok, []byte("<html>hello</html>"), http.StatusUnsupportedMediaType, "checked by its content"},
		{"empty", ok, nil, http.StatusUnsupportedMediaType, "WebM, Ogg, MP4 or WAV"},
		{"bad spoken time", "card=one&mode=study&spoken_ms=-4&wall_ms=2000", tinyWAV(10), http.StatusUnprocessableEntity, "spoken_ms"},
		{"no wall time", "card=one&mode=study&spoken_ms=4", tinyWAV(10), http.StatusUnprocessableEntity, "wall_ms"},
		{"unknown card", "card=nope&mode=study&spoken_ms=1&wall_ms=2", tinyWAV(10), http.StatusNotFound, "card"},
		{"bad mode", "card=one&mode=exam&spoken_ms=1&wall_ms=2", tinyWAV(10), http.StatusUnprocessableEntity, "mode"},
		{"someone else's mock", "card=one&mode=mock&session=999&pos=0&spoken_ms=1&wall_ms=2", tinyWAV(10), http.StatusNotFound, ""},
	}
	for _, tc := range cases {
		status, out := e.upload(c, tc.query, tc.body)
		msg, _ := out["error"].(string)
		if status != tc.status || !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %d %q, want %d naming %q", tc.name, status, msg, tc.status, tc.says)
		}
	}
	// Other containers pass by their magic bytes.
	for mime, head := range map[string][]byte{"audio/webm": {0x1a, 0x45, 0xdf, 0xa3, 1, 2}, "audio/ogg": []byte("OggS\x00\x02"),
		"audio/mp4": []byte("\x00\x00\x00\x18ftypM4A \x00\x00")} {
		if status, out := e.upload(c, ok, head); status != http.StatusCreated || out["mime"] != mime {
			t.Errorf("%s: %d %v", mime, status, out)
		}
	}
}

func TestRecordingRetentionSetting(t *testing.T) {
	t.Parallel()
	e, c, uid := studyEnv(t, "a:x:one")
	for range 4 {
		e.upload(c, "card=one&mode=study&spoken_ms=1000&wall_ms=2000", tinyWAV(10))
	}
	_, doc := e.get(c, "/settings")
	if v, _ := doc.Find("#keep_recordings").Attr("value"); v != "5" {
		t.Fatalf("default keep %q", v)
	}
	base := url.Values{"retention": {"0.9"}, "new_per_day": {"10"}, "depth": {"basics"}, "timezone": {"UTC"}}
	base.Set("keep_recordings", "0")
	if resp, doc := e.post(c, "/settings", base); resp.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(doc.Find("#keep_recordings-error").Text(), "between 1 and 50") {
		t.Fatalf("keep 0: %d %q", resp.StatusCode, doc.Find("#keep_recordings-error").Text())
	}
	base.Set("keep_recordings", "2")
	if resp, _ := e.post(c, "/settings", base); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("keep 2: %d", resp.StatusCode)
	}
	if recs, _ := e.db.CardRecordings(context.Background(), uid, "one"); len(recs) != 2 {
		t.Fatalf("kept %d, want 2", len(recs))
	}
}
