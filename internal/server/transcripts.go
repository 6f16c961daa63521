package server

import (
	"net/http"

	"github.com/rehearse/rehearse/internal/hear"
	"github.com/rehearse/rehearse/internal/mockview"
)

// Recordings are checked in the background by hear.Worker (Config.Voice); these handlers only
// report what the check found (hear.Keeper queues a new recording).

// DefaultRecordingQuota is the audio each user may keep unless configured (hear.DefaultQuota).
const DefaultRecordingQuota = hear.DefaultQuota

// recordingCheck answers GET /recordings/{id}/check: where the check of the user's recording
// is, and once done the key points heard (voice.js polls it until the status is not pending).
func (s *Server) recordingCheck(w http.ResponseWriter, r *http.Request) {
	rec, err := s.db.Recording(r.Context(), userFrom(r.Context()).ID, recordingID(r))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "private, no-store")
	writeJSON(w, http.StatusOK, mockview.Check(rec))
}

// voiceNote is what the study page says about checking: nothing when recordings are checked.
func (s *Server) voiceNote() string {
	if s.cfg.Voice.Enabled() {
		return ""
	}
	return hear.NotChecked
}
