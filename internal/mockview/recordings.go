package mockview

import (
	"fmt"
	"slices"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// SpokenText is "spoken 34 s of a 40 s target".
func SpokenText(spoken, target time.Duration) string {
	return fmt.Sprintf("spoken %.0f s of a %.0f s target", spoken.Seconds(), target.Seconds())
}

// RecordingRows lays out a card's recordings (oldest first) for its page.
func RecordingRows(recs []store.Recording, loc *time.Location) []views.RecordingRow {
	out := make([]views.RecordingRow, 0, len(recs))
	for _, rec := range recs {
		out = append(out, views.RecordingRow{ID: rec.ID, When: rec.CreatedAt.In(loc).Format("2 Jan 2006 15:04"), Mode: rec.Mode,
			Spoken: SpokenText(rec.Spoken, rec.Target), SpokenS: rec.Spoken.Seconds(), TargetS: rec.Target.Seconds(),
			Transcript: rec.Transcript, Status: rec.TranscriptStatus})
	}
	return out
}

// KeyPoints are the key points of c at depth, as the study page lists them.
func KeyPoints(c *deck.Card, depth string) []views.KeyPoint {
	var out []views.KeyPoint
	for _, i := range interview.Points(c, depth) {
		out = append(out, views.KeyPoint{Bullet: i, HTML: string(c.Answer[i].HTML())})
	}
	return out
}

// Check is the JSON answer to a recording's check: where it is, and once done the key points
// heard (voice.js polls it until the status is not pending).
func Check(rec store.Recording) map[string]any {
	points := make([]map[string]any, 0, len(rec.Points))
	for _, i := range rec.Points {
		points = append(points, map[string]any{"bullet": i, "heard": slices.Contains(rec.Heard, i)})
	}
	return map[string]any{"id": rec.ID, "status": rec.TranscriptStatus, "note": rec.Note, "transcript": rec.Transcript,
		"depth": rec.Depth, "points": points, "heard": len(rec.Heard)}
}
