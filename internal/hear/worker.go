package hear

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/transcribe"
)

// Store is what the worker reads and writes: *store.DB.
type Store interface {
	RecordingAudio(ctx context.Context, userID, id int64) (store.Recording, []byte, error)
	SetCheck(ctx context.Context, id int64, c store.Recording) error
	PendingTranscripts(ctx context.Context, limit int) ([]store.Recording, error)
}

// WorkerConfig names the worker's dependencies.
type WorkerConfig struct {
	Store Store
	Deck  func() *deck.Deck // the deck in use, for the card a recording answers
	// Recognizer checks offline; nil when pocketsphinx or ffmpeg is missing (see Find).
	Recognizer *Recognizer
	// Remote, when set, transcribes instead (an OpenAI-compatible endpoint), and the key points
	// are matched in its transcript; the card's key terms go with each request as its prompt.
	Remote *transcribe.Client
	Jobs   int // recordings checked at once; 0: one per core
	Queue  int // recordings waiting at most; 0: 64
	Log    *slog.Logger
}

// Job timeouts: a recording is at most MaxAudio long and recognition runs far faster than
// real time, so a job that takes longer is stuck.
const (
	jobTimeout    = 3 * time.Minute
	remoteTimeout = 2 * time.Minute
)

// ErrBusy is returned by Submit when the queue is full.
var ErrBusy = errors.New("too many recordings are waiting to be checked; this one was kept but not checked")

// Worker checks recordings in the background: Jobs goroutines take recording ids from a
// bounded queue. Its goroutines run from Start to Close.
type Worker struct {
	cfg  WorkerConfig
	jobs chan store.Recording

	mu      sync.Mutex
	started bool
	stop    context.CancelFunc
	wg      sync.WaitGroup
	busy    sync.WaitGroup // jobs queued or running (Wait)
}

// NewWorker returns a worker, or nil when there is nothing to check with (no recogniser and
// no remote endpoint): then Enabled is false and every method is a no-op.
func NewWorker(cfg WorkerConfig) *Worker {
	if cfg.Recognizer == nil && cfg.Remote == nil {
		return nil
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.NumCPU()
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 64
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Worker{cfg: cfg, jobs: make(chan store.Recording, cfg.Queue)}
}

// Enabled reports whether recordings are checked.
func (w *Worker) Enabled() bool { return w != nil }

// Start runs the workers and queues the recordings a restart left pending.
func (w *Worker) Start(ctx context.Context) {
	if w == nil {
		return
	}
	w.mu.Lock()
	if w.started {
		w.mu.Unlock()
		return
	}
	w.started = true
	ctx, w.stop = context.WithCancel(context.WithoutCancel(ctx))
	w.mu.Unlock()
	for range w.cfg.Jobs {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case rec := <-w.jobs:
					w.one(ctx, rec)
					w.busy.Done()
				}
			}
		}()
	}
	pending, err := w.cfg.Store.PendingTranscripts(ctx, w.cfg.Queue)
	if err != nil {
		w.cfg.Log.Warn("hear: listing pending recordings", "err", err)
	}
	for _, rec := range pending {
		if w.Submit(rec) != nil {
			break
		}
	}
}

// Submit queues a stored recording (status pending) for checking. A full queue is ErrBusy: the
// caller marks the recording unavailable with that reason.
func (w *Worker) Submit(rec store.Recording) error {
	if w == nil {
		return nil
	}
	w.busy.Add(1)
	select {
	case w.jobs <- rec:
		return nil
	default:
		w.busy.Done()
		return ErrBusy
	}
}

// Wait blocks until every queued recording is checked (tests).
func (w *Worker) Wait() {
	if w != nil {
		w.busy.Wait()
	}
}

// Close stops the workers; a job in progress is abandoned and stays pending for the next start.
func (w *Worker) Close() {
	if w == nil {
		return
	}
	w.mu.Lock()
	stop := w.stop
	w.mu.Unlock()
	if stop != nil {
		stop()
	}
	w.wg.Wait()
}

// one checks a recording and stores the outcome; any failure leaves it unavailable, with why.
func (w *Worker) one(ctx context.Context, rec store.Recording) {
	_, audio, err := w.cfg.Store.RecordingAudio(ctx, rec.UserID, rec.ID)
	if err != nil {
		return // deleted meanwhile
	}
	out := store.Recording{TranscriptStatus: "done"}
	c, ok := w.cfg.Deck().Card(rec.CardID)
	if !ok {
		out.TranscriptStatus, out.Note = "unavailable", "the card is no longer in the deck"
	} else if res, err := w.hear(ctx, c, rec, audio); err != nil {
		if ctx.Err() != nil {
			return // shutting down: stays pending
		}
		w.cfg.Log.Warn("recording not checked", "recording", rec.ID, "err", err)
		out.TranscriptStatus, out.Note = "unavailable", reason(err)
	} else {
		out.Transcript = res.Transcript
		for _, k := range res.KeyPoints {
			out.Points = append(out.Points, k.Bullet)
			if k.Heard {
				out.Heard = append(out.Heard, k.Bullet)
			}
		}
	}
	if err := w.cfg.Store.SetCheck(ctx, rec.ID, out); err != nil && !errors.Is(err, store.ErrNotFound) {
		w.cfg.Log.Warn("hear: storing a check", "recording", rec.ID, "err", err)
	}
}

func (w *Worker) hear(ctx context.Context, c *deck.Card, rec store.Recording, audio []byte) (Result, error) {
	depth := rec.Depth
	if depth == "" {
		depth = "basics"
	}
	if w.cfg.Remote != nil {
		cctx, cancel := context.WithTimeout(ctx, remoteTimeout)
		defer cancel()
		text, err := w.cfg.Remote.Transcribe(cctx, audio, rec.MIME, Prompt(c))
		if err != nil {
			return Result{}, err
		}
		res := Check(c, depth, text)
		res.Transcript = text // as the endpoint wrote it, cased and punctuated
		return res, nil
	}
	cctx, cancel := context.WithTimeout(ctx, jobTimeout)
	defer cancel()
	return w.cfg.Recognizer.Hear(cctx, w.cfg.Deck(), c, depth, audio)
}

// reason words an error for the learner.
func reason(err error) string {
	switch {
	case errors.Is(err, ErrTooLong):
		return ErrTooLong.Error()
	case errors.Is(err, context.DeadlineExceeded):
		return "checking took too long"
	}
	return "the recording could not be checked"
}
