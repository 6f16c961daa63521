// Package hear checks a spoken answer offline: ffmpeg decodes the recording to 16 kHz mono WAV,
// Debian's pocketsphinx_continuous recognises it with a language model and dictionary built on
// the fly from the card's own text, and the typed-answer check of package interview (word forms,
// synonyms) decides which key points were made. Both programs run as separate processes, so the
// binary stays pure Go.
package hear

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
)

// Install is what to run when the programs are missing; pages and errors quote it exactly.
const Install = "apt-get install pocketsphinx pocketsphinx-en-us ffmpeg"

// DefaultModel is where Debian's pocketsphinx-en-us puts the US English model.
const DefaultModel = "/usr/share/pocketsphinx/model/en-us"

// MaxAudio is the longest recording checked: a "go deeper" answer is 90 s, and recognition
// takes about a tenth of the audio's length per core here.
const MaxAudio = 5 * time.Minute

// ErrMissing means a program or the model is not installed; its message names the package.
var ErrMissing = errors.New("speech checking needs " + Install)

// ErrTooLong is a recording longer than MaxAudio.
var ErrTooLong = fmt.Errorf("recordings longer than %d minutes are not checked", int(MaxAudio.Minutes()))

// Recognizer names the programs and model it runs.
type Recognizer struct {
	Pocketsphinx string // path of pocketsphinx_continuous
	FFmpeg       string // path of ffmpeg
	Model        string // directory holding en-us/ (acoustic model) and cmudict-en-us.dict
}

// Find locates the programs on PATH and the Debian model; the error says what to install.
func Find() (Recognizer, error) {
	var r Recognizer
	var err1, err2 error
	r.Pocketsphinx, err1 = exec.LookPath("pocketsphinx_continuous")
	r.FFmpeg, err2 = exec.LookPath("ffmpeg")
	r.Model = DefaultModel
	if err1 != nil || err2 != nil {
		return r, ErrMissing
	}
	for _, p := range []string{r.acoustic(), r.dict()} {
		if _, err := os.Stat(p); err != nil {
			return r, ErrMissing
		}
	}
	return r, nil
}

func (r Recognizer) acoustic() string { return filepath.Join(r.Model, "en-us") }
func (r Recognizer) dict() string     { return filepath.Join(r.Model, "cmudict-en-us.dict") }

// KeyPoint is one key point of the depth and whether the answer made it.
type KeyPoint struct {
	Text   string `json:"text"`
	Heard  bool   `json:"heard"`
	Bullet int    `json:"-"` // index in the card's cheat-sheet
}

// Result is what was heard in one recording.
type Result struct {
	KeyPoints  []KeyPoint `json:"key_points"`
	Transcript string     `json:"transcript"`
	Seconds    float64    `json:"seconds"` // the recording's length
	// Took is how long decoding and recognition ran, in seconds.
	Took float64 `json:"took_seconds"`
}

// Heard counts the key points made.
func (r Result) Heard() int {
	n := 0
	for _, k := range r.KeyPoints {
		if k.Heard {
			n++
		}
	}
	return n
}

// Hear recognises audio (WebM, Ogg, MP4 or WAV: anything ffmpeg reads) as an answer to c at
// depth (basics, solid or deeper) and checks its key points. The other cards of d (nil: none)
// give the recogniser the words of answers to other questions, so such an answer is heard as
// what it is rather than bent into c's key terms. The work runs under ctx.
func (r Recognizer) Hear(ctx context.Context, d *deck.Deck, c *deck.Card, depth string, audio []byte) (Result, error) {
	start := time.Now()
	dir, err := os.MkdirTemp("", "rehearse-hear-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	wav, err := r.decode(ctx, dir, audio)
	if err != nil {
		return Result{}, err
	}
	secs := float64(len(wav)-44) / (16000 * 2)
	if secs > MaxAudio.Seconds() {
		return Result{}, ErrTooLong
	}
	lm, dic := filepath.Join(dir, "card.lm"), filepath.Join(dir, "card.dic")
	if err := r.buildModel(d, c, lm, dic); err != nil {
		return Result{}, err
	}
	wavPath := filepath.Join(dir, "answer.wav")
	if err := os.WriteFile(wavPath, wav, 0o600); err != nil {
		return Result{}, err
	}
	text, err := r.recognise(ctx, wavPath, lm, dic)
	if err != nil {
		return Result{}, err
	}
	res := Check(c, depth, text)
	res.Seconds = secs
	res.Took = time.Since(start).Seconds()
	return res, nil
}

// Check matches a transcript (words as recognised, numbers in words) against the key points of
// c at depth, as the typed check does.
func Check(c *deck.Card, depth, transcript string) Result {
	raw := strings.Fields(strings.ToLower(transcript))
	text := strings.Join(digitsOf(raw), " ")
	check := interview.CheckAnswer(c, depth, text+" "+joinedNames(c, raw))
	out := Result{Transcript: text, KeyPoints: []KeyPoint{}}
	for _, i := range check.Points {
		out.KeyPoints = append(out.KeyPoints, KeyPoint{Text: c.Answer[i].Text(), Heard: check.Bullets[i].Covered, Bullet: i})
	}
	return out
}

// joinedNames lists the card's dotted and underscored names ("max.poll.interval.ms", "0.10.1")
// whose parts were heard in order (heard: the recognised words, numbers in words), so the typed
// check, which keeps such names whole, finds them.
func joinedNames(c *deck.Card, heard []string) string {
	var out []string
	seen := map[string]bool{}
	for _, b := range c.Answer {
		for _, f := range strings.Fields(strings.ToLower(b.Text())) {
			f = strings.Trim(f, ".,;:()`'\"")
			if !strings.ContainsAny(f, "._") || seen[f] {
				continue
			}
			seen[f] = true
			var parts []string
			for _, s := range spokenTokens(f, false) {
				parts = append(parts, s...)
			}
			if len(parts) > 1 && containsRun(heard, parts) {
				out = append(out, f)
			}
		}
	}
	return strings.Join(out, " ")
}

// containsRun reports whether ws holds parts in order, allowing a spoken "dot" or "point"
// between them.
func containsRun(ws, parts []string) bool {
	for i := range ws {
		j, k := i, 0
		for j < len(ws) && k < len(parts) {
			if ws[j] == parts[k] {
				j, k = j+1, k+1
			} else if k > 0 && (ws[j] == "dot" || ws[j] == "point" || ws[j] == "underscore") {
				j++
			} else {
				break
			}
		}
		if k == len(parts) {
			return true
		}
	}
	return false
}

// decode turns audio into 16 kHz mono 16-bit WAV with ffmpeg, at most MaxAudio of it plus a
// second, so a longer upload is known to be too long without decoding it all.
func (r Recognizer) decode(ctx context.Context, dir string, audio []byte) ([]byte, error) {
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, audio, 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, r.FFmpeg, "-nostdin", "-loglevel", "error", "-i", in,
		"-t", fmt.Sprint(int(MaxAudio.Seconds())+1), "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", "-f", "wav", "-")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("the recording could not be decoded: %s", firstLine(stderr.String(), err))
	}
	b := out.Bytes()
	if len(b) < 44 || string(b[:4]) != "RIFF" {
		return nil, errors.New("the recording could not be decoded: ffmpeg wrote no WAV")
	}
	// ffmpeg writing to a pipe cannot seek back to fill in the sizes; pocketsphinx reads the
	// header, so set them.
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	if i := bytes.Index(b[:min(len(b), 200)], []byte("data")); i > 0 {
		binary.LittleEndian.PutUint32(b[i+4:], uint32(len(b)-i-8))
		if i != 36 { // pocketsphinx skips a fixed 44-byte header: drop extra chunks
			b = append(append([]byte{}, b[:36]...), b[i:]...)
			binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
			binary.LittleEndian.PutUint32(b[16:], 16)
		}
	}
	return b, nil
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return err.Error()
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// recognise runs pocketsphinx_continuous and joins the utterances it prints.
func (r Recognizer) recognise(ctx context.Context, wav, lm, dic string) (string, error) {
	cmd := exec.CommandContext(ctx, r.Pocketsphinx, "-infile", wav, "-hmm", r.acoustic(),
		"-lm", lm, "-dict", dic, "-logfn", os.DevNull)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("pocketsphinx failed: %s", firstLine(stderr.String(), err))
	}
	var parts []string
	for _, line := range strings.Split(out.String(), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, " "), nil
}

// maxPrompt bounds the prompt sent to a transcription endpoint; whisper reads at most 224
// tokens of it.
const maxPrompt = 600

// Prompt lists the card's names as written ("KIP-429", "onPartitionsRevoked",
// "max.poll.interval.ms") and then its other key words, for a transcription endpoint's prompt:
// whisper spells names it was shown far more often right.
func Prompt(c *deck.Card) string {
	var names, words []string
	seen := map[string]bool{}
	for _, bl := range c.Answer {
		for _, f := range strings.Fields(bl.Text()) {
			f = strings.Trim(f, ".,;:()`'\"!?")
			if len(f) > 1 && !seen[f] && strings.ContainsAny(f[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") {
				seen[f] = true
				names = append(names, f)
			}
		}
		for _, t := range interview.KeyTerms(bl.Text()) {
			if !seen[t.Surface] && !strings.ContainsAny(t.Surface, "0123456789._-") {
				seen[t.Surface] = true
				words = append(words, t.Surface)
			}
		}
	}
	var b strings.Builder
	for _, w := range append(names, words...) {
		if b.Len()+len(w)+2 > maxPrompt {
			break
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(w)
	}
	return b.String()
}
