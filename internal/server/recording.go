package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/hear"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

// maxRecordingBytes caps one upload at the server's general body cap: voice.js records Opus at
// 32 kbit/s, about 4 KB a second, so this holds over four minutes of speech.
const maxRecordingBytes = maxBody

// ownBodyLimit names the routes limitBody leaves alone: they cap the body themselves, with a
// message naming their own limit.
var ownBodyLimit = map[string]bool{"/recordings": true}

// maxRecordingTime bounds the times a client may claim for a recording.
const maxRecordingTime = 30 * time.Minute

func (s *Server) recordingRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Post("/recordings", s.uploadRecording)
		r.Get("/recordings/{id}", s.playRecording)
		r.Get("/recordings/{id}/check", s.recordingCheck)
		r.Post("/recordings/{id}/delete", s.deleteRecording)
	})
}

// sniffAudio names the container by its first bytes; the upload's name and type are ignored.
func sniffAudio(b []byte) (string, bool) {
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

// msField reads a millisecond count from the query, naming the field when it is wrong.
func msField(r *http.Request, name string) (time.Duration, error) {
	v := r.URL.Query().Get(name)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || time.Duration(n)*time.Millisecond > maxRecordingTime {
		return 0, errStatus(http.StatusUnprocessableEntity, fmt.Sprintf("%s must be a whole number of milliseconds from 0 to %d, not %q.",
			name, maxRecordingTime.Milliseconds(), v))
	}
	return time.Duration(n) * time.Millisecond, nil
}

// depthTarget is a card's spoken-answer target at a depth.
func depthTarget(c *deck.Card, depth string) time.Duration {
	switch depth {
	case "solid":
		return c.Timing.Solid
	case "deeper":
		return c.Timing.Deeper
	}
	return c.Timing.Basics
}

// uploadRecording stores the body as a recording of the card named in the query. In a mock the
// session, position and follow-up flag say which question it answers, and the target is that
// question's; in study the target is the depth's.
func (s *Server) uploadRecording(w http.ResponseWriter, r *http.Request) {
	ctx, u, q := r.Context(), userFrom(r.Context()), r.URL.Query()
	// The body first: an oversized upload is refused as such whatever else is wrong with it.
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRecordingBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || r.ContentLength > maxRecordingBytes {
		s.fail(w, r, errStatus(http.StatusRequestEntityTooLarge, fmt.Sprintf("The recording is larger than the %d MiB limit.", maxRecordingBytes>>20)))
		return
	} else if err != nil {
		s.fail(w, r, errStatus(http.StatusBadRequest, "The recording could not be read."))
		return
	}
	c, ok := s.deck().Card(q.Get("card"))
	if !ok {
		s.fail(w, r, errStatus(http.StatusNotFound, "card: there is no card "+strconv.Quote(q.Get("card"))+"."))
		return
	}
	rec := store.Recording{UserID: u.ID, CardID: c.ID, CreatedAt: s.now(), Mode: q.Get("mode"), MockPosition: -1}
	if rec.Spoken, err = msField(r, "spoken_ms"); err == nil {
		rec.Wall, err = msField(r, "wall_ms")
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rec.Spoken = min(rec.Spoken, rec.Wall) // voiced time cannot exceed the recording
	switch rec.Mode {
	case study.ModeStudy:
		rec.Depth = q.Get("depth")
		if rec.Depth != "solid" && rec.Depth != "deeper" {
			rec.Depth = "basics"
		}
		rec.Target = depthTarget(c, rec.Depth)
	case study.ModeMock:
		if err := s.mockRecordingTarget(r, &rec); err != nil {
			s.fail(w, r, err)
			return
		}
	default:
		s.fail(w, r, errStatus(http.StatusUnprocessableEntity, "mode must be study or mock."))
		return
	}
	if rec.MIME, ok = sniffAudio(body); !ok {
		s.fail(w, r, errStatus(http.StatusUnsupportedMediaType, "The upload is not WebM, Ogg, MP4 or WAV audio (checked by its content, not its name)."))
		return
	}
	if err := s.recordingRoom(r, u.ID, len(body)); err != nil {
		s.fail(w, r, err)
		return
	}
	if rec.MIME == "audio/webm" {
		body = hear.WithDuration(body, rec.Wall) // players show the length and can seek
	}
	s.checkStatus(&rec)
	if rec.ID, err = s.db.AddRecording(ctx, rec, body); err != nil {
		s.fail(w, r, err)
		return
	}
	s.queueCheck(r, rec)
	id := strconv.FormatInt(rec.ID, 10)
	writeJSON(w, http.StatusCreated, map[string]any{"id": rec.ID, "url": "/recordings/" + id, "check_url": "/recordings/" + id + "/check",
		"bytes": len(body), "spoken_ms": rec.Spoken.Milliseconds(), "wall_ms": rec.Wall.Milliseconds(),
		"target_ms": rec.Target.Milliseconds(), "mime": rec.MIME, "status": rec.TranscriptStatus, "note": rec.Note})
}

// recordingRoom refuses an upload past the user's rate or quota, saying which and what to do.
func (s *Server) recordingRoom(r *http.Request, userID int64, n int) error {
	if wait, ok := s.uploads.allow(userID, n, s.now()); !ok {
		return errStatus(http.StatusTooManyRequests, fmt.Sprintf("Too many recordings in a short time: wait %d minutes and record again.", int(wait.Minutes())+1))
	}
	if s.cfg.RecordingQuota < 0 {
		return nil
	}
	used, err := s.db.UserRecordingBytes(r.Context(), userID)
	if err != nil {
		return err
	}
	if used+int64(n) > s.cfg.RecordingQuota {
		return errStatus(http.StatusInsufficientStorage, quotaText(used, s.cfg.RecordingQuota))
	}
	return nil
}

// mockRecordingTarget checks that the named mock question is the user's and still open, and
// takes its target.
func (s *Server) mockRecordingTarget(r *http.Request, rec *store.Recording) error {
	q := r.URL.Query()
	sid, err1 := strconv.ParseInt(q.Get("session"), 10, 64)
	pos, err2 := strconv.Atoi(q.Get("pos"))
	if err1 != nil || err2 != nil {
		return errStatus(http.StatusUnprocessableEntity, "session and pos must name the mock question answered.")
	}
	sess, err := s.db.MockSession(r.Context(), rec.UserID, sid, s.now())
	if err != nil {
		return err
	}
	if pos < 0 || pos >= len(sess.Answers) || sess.Answers[pos].CardID != rec.CardID {
		return errStatus(http.StatusUnprocessableEntity, "pos does not name a question of this session about this card.")
	}
	a := sess.Answers[pos]
	if sess.Status != store.MockActive || a.Rating > 0 {
		return errStatus(http.StatusConflict, "That question is already rated; the recording was not kept.")
	}
	rec.MockSessionID, rec.MockPosition, rec.Depth = sid, pos, sess.Settings.Depth
	rec.FollowUp = q.Get("followup") == "1"
	rec.Target = a.Target
	if rec.FollowUp {
		rec.Target = a.FollowUpTarget
	}
	return nil
}

func recordingID(r *http.Request) int64 {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil {
		return -1
	}
	return id
}

// playRecording serves the audio to its owner only: anyone else, admins included, gets 404.
func (s *Server) playRecording(w http.ResponseWriter, r *http.Request) {
	rec, audio, err := s.db.RecordingAudio(r.Context(), userFrom(r.Context()).ID, recordingID(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", rec.MIME)
	w.Header().Set("Cache-Control", "private, no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", rec.CreatedAt, bytes.NewReader(audio))
}

func (s *Server) deleteRecording(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	id := recordingID(r)
	rec, _, err := s.db.RecordingAudio(r.Context(), u.ID, id)
	if err == nil {
		err = s.db.DeleteRecording(r.Context(), u.ID, id)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "deleted": id})
		return
	}
	next := "/cards/" + rec.CardID
	if n := r.PostFormValue("next"); n != "" {
		next = safeNext(n) // the one check of where a form may send the browser (auth.go)
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// attachRecording links the recording posted with a study answer to its review. The answer is
// already stored, so a failure is only logged.
func (s *Server) attachRecording(r *http.Request, userID, logID int64) {
	id, err := strconv.ParseInt(r.PostFormValue("recording"), 10, 64)
	if err != nil {
		return
	}
	if err := s.db.AttachRecording(r.Context(), userID, id, logID); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.WarnContext(r.Context(), "recording not attached", "recording", id, "err", err)
	}
}

// spokenText is "spoken 34 s of a 40 s target".
func spokenText(spoken, target time.Duration) string {
	return fmt.Sprintf("spoken %.0f s of a %.0f s target", spoken.Seconds(), target.Seconds())
}

// recordingRows lays out a card's recordings (oldest first) for its page.
func recordingRows(recs []store.Recording, loc *time.Location) []views.RecordingRow {
	out := make([]views.RecordingRow, 0, len(recs))
	for _, rec := range recs {
		out = append(out, views.RecordingRow{ID: rec.ID, When: rec.CreatedAt.In(loc).Format("2 Jan 2006 15:04"), Mode: rec.Mode,
			Spoken: spokenText(rec.Spoken, rec.Target), SpokenS: rec.Spoken.Seconds(), TargetS: rec.Target.Seconds(),
			Transcript: rec.Transcript, Status: rec.TranscriptStatus})
	}
	return out
}
