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

	"github.com/rehearse/rehearse/internal/hear"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
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

// uploadRecording stores the body as a recording of the card named in the query (hear.Keeper).
// In a mock the session, position and follow-up flag say which question it answers, and the
// target is that question's; in study the target is the depth's.
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
		rec.Target = interview.Target(c, rec.Depth)
	case study.ModeMock:
		err = s.mockRecordingTarget(r, &rec)
	default:
		err = errStatus(http.StatusUnprocessableEntity, "mode must be study or mock.")
	}
	if err == nil {
		keep := hear.Keeper{Store: s.db, Uploads: &s.uploads, Quota: s.cfg.RecordingQuota, Voice: s.cfg.Voice, Log: s.log}
		rec, err = keep.Keep(ctx, rec, body)
	}
	var rate *hear.RateError
	var full *hear.QuotaError
	switch {
	case errors.Is(err, hear.ErrNotAudio):
		err = errStatus(http.StatusUnsupportedMediaType, "The upload is not WebM, Ogg, MP4 or WAV audio (checked by its content, not its name).")
	case errors.As(err, &rate):
		err = errStatus(http.StatusTooManyRequests, rate.Error())
	case errors.As(err, &full):
		err = errStatus(http.StatusInsufficientStorage, full.Error())
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	id := strconv.FormatInt(rec.ID, 10)
	writeJSON(w, http.StatusCreated, map[string]any{"id": rec.ID, "url": "/recordings/" + id, "check_url": "/recordings/" + id + "/check",
		"bytes": rec.Size, "spoken_ms": rec.Spoken.Milliseconds(), "wall_ms": rec.Wall.Milliseconds(),
		"target_ms": rec.Target.Milliseconds(), "mime": rec.MIME, "status": rec.TranscriptStatus, "note": rec.Note})
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
	switch err := hear.MockTarget(rec, sess, pos, q.Get("followup") == "1"); err {
	case hear.ErrNotQuestion:
		return errStatus(http.StatusUnprocessableEntity, "pos does not name a question of this session about this card.")
	case hear.ErrRated:
		return errStatus(http.StatusConflict, "That question is already rated; the recording was not kept.")
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
