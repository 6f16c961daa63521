// Package transcribe sends a recording to an OpenAI-compatible speech-to-text endpoint
// (POST /v1/audio/transcriptions, multipart: file, model, response_format=json), which
// whisper.cpp's server and faster-whisper-server both speak, and returns the text.
package transcribe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
)

// maxResponse bounds what is read back: a transcript of minutes of speech is a few KB.
const maxResponse = 1 << 20

// Client calls one endpoint.
type Client struct {
	URL   string // the full endpoint, e.g. http://127.0.0.1:8000/v1/audio/transcriptions
	Model string // sent as "model"; servers that serve one model ignore it
	HTTP  *http.Client
}

// CheckURL accepts an http or https URL with a host.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL such as http://127.0.0.1:8000/v1/audio/transcriptions", raw)
	}
	return nil
}

var extensions = map[string]string{"audio/webm": "webm", "audio/ogg": "ogg", "audio/mp4": "m4a", "audio/wav": "wav"}

// Transcribe returns the text of audio (of the given MIME type). prompt, when set, goes as the
// request's "prompt": words the speaker is likely to use, which whisper then spells as given.
func (c Client) Transcribe(ctx context.Context, audio []byte, mime, prompt string) (string, error) {
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	ext := extensions[mime]
	if ext == "" {
		ext = "bin"
	}
	h.Set("Content-Disposition", `form-data; name="file"; filename="answer.`+ext+`"`)
	h.Set("Content-Type", mime)
	part, err := w.CreatePart(h)
	if err != nil {
		return "", err
	}
	part.Write(audio)
	model := c.Model
	if model == "" {
		model = "whisper-1"
	}
	w.WriteField("model", model)
	w.WriteField("response_format", "json")
	if prompt != "" {
		w.WriteField("prompt", prompt)
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, &body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("transcription endpoint answered %s", resp.Status)
	}
	var out struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return "", fmt.Errorf("transcription endpoint sent no JSON text: %w", err)
	}
	text := strings.TrimSpace(out.Text)
	if text == "" {
		return "", errors.New("transcription endpoint sent an empty text")
	}
	return text, nil
}
