package server

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/hear"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Recordings are checked in the background by hear.Worker (Config.Voice); these handlers only
// queue a stored recording and report what the check found.

// notChecked is what pages and uploads say when the server checks no recordings.
const notChecked = "Spoken answers are not checked on this server. To check them offline: " + hear.Install

// queueCheck starts the check of a stored recording, or stores why it was not checked.
func (s *Server) queueCheck(r *http.Request, rec store.Recording) {
	if rec.TranscriptStatus != "pending" {
		return
	}
	if err := s.cfg.Voice.Submit(rec); err != nil {
		rec.TranscriptStatus, rec.Note = "unavailable", err.Error()
		if err := s.db.SetCheck(r.Context(), rec.ID, rec); err != nil {
			s.log.WarnContext(r.Context(), "recording check not stored", "recording", rec.ID, "err", err)
		}
	}
}

// checkStatus is the status and note a new recording starts with.
func (s *Server) checkStatus(rec *store.Recording) {
	switch {
	case !s.cfg.Voice.Enabled():
		rec.TranscriptStatus, rec.Note = "none", notChecked
	case rec.Wall > hear.MaxAudio:
		rec.TranscriptStatus, rec.Note = "unavailable", hear.ErrTooLong.Error()
	default:
		rec.TranscriptStatus = "pending"
	}
}

// recordingCheck answers GET /recordings/{id}/check: where the check of the user's recording
// is, and once done the key points heard (voice.js polls it until the status is not pending).
func (s *Server) recordingCheck(w http.ResponseWriter, r *http.Request) {
	rec, err := s.db.Recording(r.Context(), userFrom(r.Context()).ID, recordingID(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "private, no-store")
	writeJSON(w, http.StatusOK, checkJSON(rec))
}

func checkJSON(rec store.Recording) map[string]any {
	points := make([]map[string]any, 0, len(rec.Points))
	for _, i := range rec.Points {
		heard := false
		for _, h := range rec.Heard {
			heard = heard || h == i
		}
		points = append(points, map[string]any{"bullet": i, "heard": heard})
	}
	return map[string]any{"id": rec.ID, "status": rec.TranscriptStatus, "note": rec.Note, "transcript": rec.Transcript,
		"depth": rec.Depth, "points": points, "heard": len(rec.Heard)}
}

// Upload bounds (issue 35 #8): each user keeps at most Config.RecordingQuota bytes of audio,
// and uploads at most uploadsPerWindow recordings and uploadBytesPerWindow bytes per window.
const (
	DefaultRecordingQuota = 200 << 20 // about 14 hours of speech at voice.js's 32 kbit/s
	uploadWindow          = 10 * time.Minute
	uploadsPerWindow      = 40
	uploadBytesPerWindow  = 24 << 20
)

// uploadLimiter remembers each user's recent uploads in memory.
type uploadLimiter struct {
	mu   sync.Mutex
	seen map[int64][]upload
}

type upload struct {
	at    time.Time
	bytes int
}

// allow counts an upload of n bytes by user at now, or says how long to wait.
func (l *uploadLimiter) allow(user int64, n int, now time.Time) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil || len(l.seen) > 10000 {
		l.seen = map[int64][]upload{}
	}
	recent := l.seen[user][:0]
	total := n
	for _, u := range l.seen[user] {
		if now.Sub(u.at) < uploadWindow {
			recent = append(recent, u)
			total += u.bytes
		}
	}
	if len(recent) >= uploadsPerWindow || total > uploadBytesPerWindow {
		l.seen[user] = recent
		return uploadWindow - now.Sub(recent[0].at), false
	}
	l.seen[user] = append(recent, upload{now, n})
	return 0, true
}

// quotaText is the message for a full quota.
func quotaText(used, quota int64) string {
	return fmt.Sprintf("Your recordings are full: they use %.0f MiB of your %.0f MiB. Delete some on a card's page, or keep fewer per card in Settings, then record again.",
		float64(used)/(1<<20), float64(quota)/(1<<20))
}

// voiceNote is what the study page says about checking: nothing when recordings are checked.
func (s *Server) voiceNote() string {
	if s.cfg.Voice.Enabled() {
		return ""
	}
	return notChecked
}

// keyPoints are the key points of c at depth, as the study page lists them.
func keyPoints(c *deck.Card, depth string) []views.KeyPoint {
	var out []views.KeyPoint
	for _, i := range interview.Points(c, depth) {
		out = append(out, views.KeyPoint{Bullet: i, HTML: string(c.Answer[i].HTML())})
	}
	return out
}
