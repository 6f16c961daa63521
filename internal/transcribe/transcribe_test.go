package transcribe

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A fake endpoint served by the test checks the request the way a whisper server reads it.
func TestTranscribeAgainstFakeEndpoint(t *testing.T) {
	audio := []byte("OggS fake audio")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/audio/transcriptions" || r.Method != http.MethodPost {
			http.Error(w, "wrong place", http.StatusNotFound)
			return
		}
		f, hdr, err := r.FormFile("file")
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		got, _ := io.ReadAll(f)
		if string(got) != string(audio) || hdr.Filename != "answer.ogg" || r.FormValue("model") != "whisper-1" ||
			r.FormValue("response_format") != "json" || r.FormValue("prompt") != "KIP-429, onPartitionsRevoked" {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"text": "  only the moving partitions pause  "}`)
	}))
	defer srv.Close()
	c := Client{URL: srv.URL + "/v1/audio/transcriptions"}
	text, err := c.Transcribe(context.Background(), audio, "audio/ogg", "KIP-429, onPartitionsRevoked")
	if err != nil || text != "only the moving partitions pause" {
		t.Fatalf("got %q, %v", text, err)
	}
}

func TestTranscribeFailures(t *testing.T) {
	mk := func(h http.HandlerFunc) string {
		s := httptest.NewServer(h)
		t.Cleanup(s.Close)
		return s.URL
	}
	slow := mk(func(w http.ResponseWriter, r *http.Request) { time.Sleep(600 * time.Millisecond) })
	cases := map[string]string{
		"500":        mk(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "model not loaded", 500) }),
		"not json":   mk(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }),
		"empty text": mk(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"text": ""}`) }),
		"down":       "http://127.0.0.1:1/v1/audio/transcriptions",
		"timeout":    slow,
	}
	for name, u := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		if _, err := (Client{URL: u}).Transcribe(ctx, []byte("RIFF"), "audio/wav", ""); err == nil {
			t.Errorf("%s: no error", name)
		}
		cancel()
	}
	for _, bad := range []string{"", "ftp://x/y", "localhost:8000", "http://"} {
		if CheckURL(bad) == nil {
			t.Errorf("CheckURL(%q) accepted", bad)
		}
	}
	if CheckURL("http://127.0.0.1:8000/v1/audio/transcriptions") != nil {
		t.Error("a good URL refused")
	}
}
