package mockview

import (
	"slices"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/mockrun"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Progress is where the turn is in its session.
func Progress(t *mockrun.Turn) views.MockProgress {
	return views.MockProgress{SessionID: t.Session.ID, Pos: t.Pos, N: len(t.Session.Answers)}
}

// Question is the page asking the current question, or its follow-up once that is asked, with
// the clock as it stands at now for a question shown at shown.
func Question(t *mockrun.Turn, shown, now time.Time) views.MockQuestion {
	a := t.Answer
	v := views.MockQuestion{Progress: Progress(t), Card: t.Card, Text: t.Card.Question, Depth: t.Session.Settings.Depth,
		Target: a.Target, Strict: t.Strict()}
	if t.Step() == mockrun.FollowingUp {
		v.Text, v.FollowUp, v.Target = t.Card.FollowUps[a.FollowUpIndex].Question, true, a.FollowUpTarget
	}
	v.Remaining = t.Clock().Remaining(shown, now, v.Target)
	return v
}

// FollowUpReview is the page after the follow-up: the model follow-up answer and the rating.
func FollowUpReview(t *mockrun.Turn) views.MockFollowUpReview {
	a := t.Answer
	return views.MockFollowUpReview{Progress: Progress(t), Card: t.Card, FollowUp: t.Card.FollowUps[a.FollowUpIndex], Typed: a.FollowUpTyped,
		Used: a.FollowUpUsed, Target: a.FollowUpTarget, Expired: a.FollowUpUsed >= a.FollowUpTarget && t.Strict()}
}

// Review builds the checklists: the key points of the chosen depth and the pitfalls. Ticks come
// from the stored answer (the heuristic's guess until the user saves corrections); the "why"
// notes re-run the heuristic to explain them, in the card's own words. recs are the session's
// recordings: a transcript of the spoken answer is checked exactly like typed text, and its
// points are ticked in advance until the user confirms the checklist.
func Review(t *mockrun.Turn, recs []store.Recording) views.MockReview {
	a := t.Answer
	v := views.MockReview{Progress: Progress(t), Card: t.Card, Depth: t.Session.Settings.Depth, Typed: a.Typed,
		Used: a.Used, Target: a.Target, Expired: a.Expired, HasFollowUp: t.HasFollowUp() && !a.Checked,
		Heuristic: HeuristicText}
	answer := a.Typed
	for _, rec := range recs {
		if rec.MockPosition == t.Pos && !rec.FollowUp {
			v.Spoken, v.TranscriptStatus, v.Transcript, v.RecordingID = rec.Spoken, rec.TranscriptStatus, rec.Transcript, rec.ID
		}
	}
	if v.TranscriptStatus == "done" {
		answer = strings.TrimSpace(answer + "\n" + v.Transcript)
	}
	check := interview.CheckAnswer(t.Card, t.Session.Settings.Depth, answer)
	covered, flagged := a.Covered, a.PitfallsHit
	if !a.Checked && v.TranscriptStatus == "done" {
		covered = append(slices.Clone(covered), check.Covered()...)
		flagged = append(slices.Clone(flagged), check.Flagged()...)
	}
	for _, i := range check.Points {
		item := views.MockCheckItem{Index: i, Block: t.Card.Answer[i], Checked: slices.Contains(covered, i)}
		if answer != "" {
			item.Why = pointWhy(check.Bullets[i])
		}
		v.Bullets = append(v.Bullets, item)
	}
	for i, p := range t.Card.Pitfalls {
		item := views.MockCheckItem{Index: i, Block: p, Checked: slices.Contains(flagged, i)}
		if answer != "" && i < len(check.Pitfalls) && check.Pitfalls[i].Flagged {
			item.Why = "flagged: your answer says " + strings.Join(check.Pitfalls[i].Matched, ", ")
		}
		v.Pitfalls = append(v.Pitfalls, item)
	}
	return v
}

// HeuristicText explains the checklist's advance ticks on the review page.
const HeuristicText = "Ticked in advance from what you typed: a point counts as made when your answer uses at least half of its distinctive words (up to four; synonyms and word forms count, and words every point of the card uses do not), or two thirds of all its words, or its opening label plus one more of its words. A pitfall is flagged when one sentence holds its quoted phrase or most of its distinctive words, with the same negation. Correct anything it got wrong."

// pointWhy says what the heuristic found for one point, in the card's words.
func pointWhy(bc interview.BulletCheck) string {
	if len(bc.Matched) == 0 {
		return "none of its key words found"
	}
	why := "found " + strings.Join(bc.Matched, ", ")
	if bc.LabelMade {
		why += " (the label “" + bc.Label + "”)"
	}
	return why
}

// End is the page asking before a session is ended: how far it got.
func End(sess *store.MockSession) views.MockEnd {
	v := views.MockEnd{Progress: views.MockProgress{SessionID: sess.ID, Pos: max(sess.Current(), 0), N: len(sess.Answers)}}
	for _, a := range sess.Answers {
		if a.Rating > 0 {
			v.Answered++
		}
	}
	return v
}
