package hear

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/rehearse/rehearse/internal/store"
)

// The rules an uploaded recording is held to before it is stored: what audio it is, how much a
// user may upload and keep, which question it answers and the status its check starts with.

// Sniff names the container by its first bytes; the upload's name and type are ignored.
func Sniff(b []byte) (string, bool) {
	switch {
	case bytes.HasPrefix(b, []byte{0x1a, 0x45, 0xdf, 0xa3}): // EBML: WebM (Matroska)
		return "audio/webm", true
	case bytes.HasPrefix(b, []byte("OggS")):
		return "audio/ogg", true
	case len(b) >= 12 && string(b[4:8]) == "ftyp":
		return "audio/mp4", true
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WAVE":
		return "audio/wav", true
	}
	return "", false
}

// Upload bounds (issue 35 #8): each user keeps at most a quota of audio (DefaultQuota unless
// configured), and uploads at most UploadsPerWindow recordings and UploadBytesPerWindow bytes
// per UploadWindow.
const (
	DefaultQuota         = 200 << 20 // about 14 hours of speech at voice.js's 32 kbit/s
	UploadWindow         = 10 * time.Minute
	UploadsPerWindow     = 40
	UploadBytesPerWindow = 24 << 20
)

// Uploads remembers each user's recent uploads in memory. The zero value is ready to use.
type Uploads struct {
	mu   sync.Mutex
	seen map[int64][]upload
}

type upload struct {
	at    time.Time
	bytes int
}

// Allow counts an upload of n bytes by user at now, or says how long to wait.
func (l *Uploads) Allow(user int64, n int, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil || len(l.seen) > 10000 {
		l.seen = map[int64][]upload{}
	}
	recent := l.seen[user][:0]
	total := n
	for _, u := range l.seen[user] {
		if now.Sub(u.at) < UploadWindow {
			recent = append(recent, u)
			total += u.bytes
		}
	}
	if len(recent) >= UploadsPerWindow || total > UploadBytesPerWindow {
		l.seen[user] = recent
		if len(recent) == 0 { // one upload over the whole budget: no wait lets it in
			return UploadWindow, false
		}
		return UploadWindow - now.Sub(recent[0].at), false
	}
	l.seen[user] = append(recent, upload{now, n})
	return 0, true
}

// RateError refuses an upload past the user's rate; its text says how long to wait.
type RateError struct{ Wait time.Duration }

func (e *RateError) Error() string {
	return fmt.Sprintf("Too many recordings in a short time: wait %d minutes and record again.", int(e.Wait.Minutes())+1)
}

// QuotaError refuses an upload that would take the user past their quota; its text says what
// to do.
type QuotaError struct{ Used, Quota int64 }

func (e *QuotaError) Error() string {
	return fmt.Sprintf("Your recordings are full: they use %.0f MiB of your %.0f MiB. Delete some on a card's page, or keep fewer per card in Settings, then record again.",
		float64(e.Used)/(1<<20), float64(e.Quota)/(1<<20))
}

// ErrNotAudio refuses an upload whose content is none of the containers Sniff knows.
var ErrNotAudio = errors.New("hear: the upload is not audio")

// UploadStore is what keeping an upload reads and writes: *store.DB.
type UploadStore interface {
	UserRecordingBytes(ctx context.Context, userID int64) (int64, error)
	AddRecording(ctx context.Context, r store.Recording, audio []byte) (int64, error)
	SetCheck(ctx context.Context, id int64, c store.Recording) error
}

// Keeper stores uploaded recordings within each user's rate and quota and starts their check.
type Keeper struct {
	Store   UploadStore
	Uploads *Uploads
	Quota   int64   // bytes of audio each user may keep; negative: no quota
	Voice   *Worker // nil: recordings are not checked
	Log     *slog.Logger
}

// Keep stores audio as rec (made at rec.CreatedAt) and queues its check: ErrNotAudio for
// content that is not audio, *RateError or *QuotaError past the user's limits. A WebM gets its
// length written in, so players show it and can seek. It returns rec as stored, with its id and
// where its check starts (a full queue marks it unavailable, saying why).
func (k Keeper) Keep(ctx context.Context, rec store.Recording, audio []byte) (store.Recording, error) {
	var ok bool
	if rec.MIME, ok = Sniff(audio); !ok {
		return rec, ErrNotAudio
	}
	if wait, ok := k.Uploads.Allow(rec.UserID, len(audio), rec.CreatedAt); !ok {
		return rec, &RateError{wait}
	}
	if k.Quota >= 0 {
		used, err := k.Store.UserRecordingBytes(ctx, rec.UserID)
		if err != nil {
			return rec, err
		}
		if used+int64(len(audio)) > k.Quota {
			return rec, &QuotaError{used, k.Quota}
		}
	}
	if rec.MIME == "audio/webm" {
		audio = WithDuration(audio, rec.Wall)
	}
	rec.Size = int64(len(audio))
	StartStatus(&rec, k.Voice.Enabled())
	var err error
	if rec.ID, err = k.Store.AddRecording(ctx, rec, audio); err != nil {
		return rec, err
	}
	if rec.TranscriptStatus == "pending" {
		if err := k.Voice.Submit(rec); err != nil {
			rec.TranscriptStatus, rec.Note = "unavailable", err.Error()
			if err := k.Store.SetCheck(ctx, rec.ID, rec); err != nil && k.Log != nil {
				k.Log.WarnContext(ctx, "recording check not stored", "recording", rec.ID, "err", err)
			}
		}
	}
	return rec, nil
}

// NotChecked is what pages and uploads say when the server checks no recordings.
const NotChecked = "Spoken answers are not checked on this server. To check them offline: " + Install

// StartStatus sets the status and note a new recording starts with: pending when checks is on and the
// audio is short enough to check.
func StartStatus(rec *store.Recording, checks bool) {
	switch {
	case !checks:
		rec.TranscriptStatus, rec.Note = "none", NotChecked
	case rec.Wall > MaxAudio:
		rec.TranscriptStatus, rec.Note = "unavailable", ErrTooLong.Error()
	default:
		rec.TranscriptStatus = "pending"
	}
}

// Errors MockTarget returns.
var (
	ErrNotQuestion = errors.New("hear: no question of the session about this card at that position")
	ErrRated       = errors.New("hear: the question is already rated")
)

// MockTarget checks that a recording of a mock answer names an open question of sess about its
// card, and fills in the question and its target (the follow-up's when it answers that).
func MockTarget(rec *store.Recording, sess *store.MockSession, pos int, followUp bool) error {
	if pos < 0 || pos >= len(sess.Answers) || sess.Answers[pos].CardID != rec.CardID {
		return ErrNotQuestion
	}
	a := sess.Answers[pos]
	if sess.Status != store.MockActive || a.Rating > 0 {
		return ErrRated
	}
	rec.MockSessionID, rec.MockPosition, rec.Depth, rec.FollowUp = sess.ID, pos, sess.Settings.Depth, followUp
	rec.Target = a.Target
	if followUp {
		rec.Target = a.FollowUpTarget
	}
	return nil
}
