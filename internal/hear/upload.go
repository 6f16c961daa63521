package hear

import (
	"bytes"
	"errors"
	"fmt"
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

// RateText is the message for an upload refused by Allow.
func RateText(wait time.Duration) string {
	return fmt.Sprintf("Too many recordings in a short time: wait %d minutes and record again.", int(wait.Minutes())+1)
}

// QuotaText is the message for a full quota.
func QuotaText(used, quota int64) string {
	return fmt.Sprintf("Your recordings are full: they use %.0f MiB of your %.0f MiB. Delete some on a card's page, or keep fewer per card in Settings, then record again.",
		float64(used)/(1<<20), float64(quota)/(1<<20))
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
