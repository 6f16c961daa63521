package server

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/transcribe"
)

// transcribeTimeout bounds one call to the endpoint; a slow or hung one marks the recording
// "transcript unavailable" and the answer stays as it was.
const transcribeTimeout = 2 * time.Minute

// transcriber turns pending recordings into transcripts in the background, one at a time. Its
// goroutine runs only while there is work: kick starts it, and it ends when nothing is pending.
type transcriber struct {
	client transcribe.Client
	db     *store.DB
	log    *slog.Logger

	mu      sync.Mutex
	running bool
	again   bool          // kicked while running: look for work once more before ending
	idle    chan struct{} // closed when the goroutine ends (tests wait on it)
}

func newTranscriber(url string, db *store.DB, log *slog.Logger) *transcriber {
	if url == "" {
		return nil // off by default: nothing leaves the server
	}
	return &transcriber{client: transcribe.Client{URL: url, HTTP: &http.Client{Timeout: transcribeTimeout}}, db: db, log: log}
}

// kick makes sure pending recordings get transcribed.
func (t *transcriber) kick() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.running {
		t.again = true
		return
	}
	t.running, t.idle = true, make(chan struct{})
	go t.run(t.idle)
}

func (t *transcriber) run(idle chan struct{}) {
	defer close(idle)
	ctx := context.Background()
	for {
		recs, err := t.db.PendingTranscripts(ctx, 20)
		if err != nil {
			t.log.Warn("transcripts: listing pending recordings", "err", err)
		}
		for _, rec := range recs {
			t.one(ctx, rec)
		}
		t.mu.Lock()
		if len(recs) == 0 && !t.again {
			t.running = false
			t.mu.Unlock()
			return
		}
		t.again = false
		t.mu.Unlock()
	}
}

// one transcribes a recording; any failure leaves it "transcript unavailable".
func (t *transcriber) one(ctx context.Context, rec store.Recording) {
	_, audio, err := t.db.RecordingAudio(ctx, rec.UserID, rec.ID)
	if err != nil {
		return // deleted meanwhile
	}
	cctx, cancel := context.WithTimeout(ctx, transcribeTimeout)
	text, err := t.client.Transcribe(cctx, audio, rec.MIME)
	cancel()
	status := "done"
	if err != nil {
		t.log.Warn("transcript unavailable", "recording", rec.ID, "err", err)
		status, text = "unavailable", ""
	}
	if err := t.db.SetTranscript(ctx, rec.ID, status, text); err != nil && err != store.ErrNotFound {
		t.log.Warn("transcripts: storing", "recording", rec.ID, "err", err)
	}
}

// wait blocks until the background work ends (for tests and shutdown).
func (t *transcriber) wait() {
	if t == nil {
		return
	}
	t.mu.Lock()
	idle := t.idle
	t.mu.Unlock()
	if idle != nil {
		<-idle
	}
}
