package mockrun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
)

// MaxTyped is how many characters of a typed answer are kept.
const MaxTyped = 10000

// ErrRanOut is Show's answer when a strict clock ran out while nobody submitted: the empty
// answer is stored and the question has moved on.
var ErrRanOut = errors.New("mockrun: the clock ran out")

// Show marks the current question (or its follow-up) shown the first time it is asked for, and
// says when it was shown. Once a strict clock has run out it stores an empty answer that took
// the whole target instead, and returns ErrRanOut. Other steps show nothing timed: zero time.
func Show(ctx context.Context, db Store, t *Turn, now time.Time) (time.Time, error) {
	a, id, pos := t.Answer, t.Session.ID, t.Pos
	switch t.Step() {
	case Asking:
		return t.show(a.ShownAt, a.Target, now, func() error { return db.MarkMockShown(ctx, id, pos, now) },
			func() error { return submit(ctx, db, t, store.MockSubmission{At: now, Used: a.Target, Expired: true}) })
	case FollowingUp:
		return t.show(a.FollowUpShownAt, a.FollowUpTarget, now, func() error { return db.MarkFollowUpShown(ctx, id, pos, now) },
			func() error { return submitFollowUp(ctx, db, t, now, a.FollowUpTarget, "") })
	}
	return time.Time{}, nil
}

// show marks a question shown (when it was not yet) and stores its run-out answer once the
// clock has run out on target.
func (t *Turn) show(shown time.Time, target time.Duration, now time.Time, mark, ranOut func() error) (time.Time, error) {
	if shown.IsZero() {
		if err := mark(); err != nil {
			return shown, err
		}
		shown = now
	}
	if !t.Clock().RanOut(shown, now, target) {
		return shown, nil
	}
	if err := ranOut(); err != nil {
		return shown, err
	}
	return shown, ErrRanOut
}

// Answer takes the typed answer to the current question, measured by the session's clock, with
// the checklists the heuristic ticks. A question not shown or already answered (a stale tab or
// a double submit) is left as it is.
func Answer(ctx context.Context, db Store, t *Turn, typed string, now time.Time) error {
	if !t.Answer.AnsweredAt.IsZero() || t.Answer.ShownAt.IsZero() {
		return nil
	}
	used, expired, typed := t.Clock().Used(t.Answer.ShownAt, now, t.Answer.Target, capTyped(typed))
	return submit(ctx, db, t, store.MockSubmission{At: now, Used: used, Expired: expired, Typed: typed})
}

// capTyped trims a typed answer and keeps its first MaxTyped characters.
func capTyped(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxTyped {
		s = string([]rune(s)[:MaxTyped])
	}
	return s
}

// submit stores the answer with the heuristic's ticks; one stored meanwhile wins.
func submit(ctx context.Context, db Store, t *Turn, sub store.MockSubmission) error {
	if sub.Typed != "" {
		check := interview.CheckAnswer(t.Card, t.Session.Settings.Depth, sub.Typed)
		sub.Covered, sub.Pitfalls = check.Covered(), check.Flagged()
	}
	if err := db.SubmitMockAnswer(ctx, t.Session.ID, t.Pos, sub); err != nil && !errors.Is(err, store.ErrStale) {
		return err
	}
	return nil
}

// Checklist is the user's corrections of an answer's checklists, as posted: the key points
// covered and the pitfalls hit, each the index of one of the card's items.
type Checklist struct{ Covered, Pitfalls []string }

// ChecklistError names a ticked item the card does not have.
type ChecklistError struct{ Item string }

func (e *ChecklistError) Error() string {
	return fmt.Sprintf("The checklist item %q does not exist on this card.", e.Item)
}

// Check saves the corrected checklists of an answered question not yet checked.
func Check(ctx context.Context, db Store, t *Turn, cl Checklist) error {
	if t.Answer.AnsweredAt.IsZero() || t.Answer.Checked {
		return nil
	}
	return saveChecklist(ctx, db, t, cl)
}

func saveChecklist(ctx context.Context, db Store, t *Turn, cl Checklist) error {
	covered, err := indexes(cl.Covered, len(t.Card.Answer))
	if err != nil {
		return err
	}
	pitfalls, err := indexes(cl.Pitfalls, len(t.Card.Pitfalls))
	if err != nil {
		return err
	}
	err = db.SaveMockChecklist(ctx, t.Session.ID, t.Pos, covered, pitfalls)
	if errors.Is(err, store.ErrStale) {
		return nil // already rated meanwhile: nothing left to correct
	}
	return err
}

// indexes reads ticked boxes, each an index below n, once each.
func indexes(vals []string, n int) ([]int, error) {
	var out []int
	for _, v := range vals {
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= n {
			return nil, &ChecklistError{v}
		}
		if !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out, nil
}

// FollowUp takes the typed answer to the follow-up being asked; one already answered is left
// as it is.
func FollowUp(ctx context.Context, db Store, t *Turn, typed string, now time.Time) error {
	a := t.Answer
	if a.FollowUpShownAt.IsZero() || !a.FollowUpAnsweredAt.IsZero() {
		return nil
	}
	used, _, typed := t.Clock().Used(a.FollowUpShownAt, now, a.FollowUpTarget, capTyped(typed))
	return submitFollowUp(ctx, db, t, now, used, typed)
}

func submitFollowUp(ctx context.Context, db Store, t *Turn, now time.Time, used time.Duration, typed string) error {
	if err := db.SubmitFollowUp(ctx, t.Session.ID, t.Pos, now, used, typed); err != nil && !errors.Is(err, store.ErrStale) {
		return err
	}
	return nil
}

// Rated is what a rating did.
type Rated struct {
	Stored   bool  // false: not the time to rate, or another request rated first
	Reviewed bool  // the rating also went to the study schedule
	Finished bool  // it rated the last question: the session is closed
	Unlogged error // why a review the session records was not recorded (the mock carries on)
}

// Rate stores the rating of the current question once its answer (and follow-up, if any) are
// in, with the checklist corrections posted with it (nil: none). A session that records reviews
// feeds the rating to the study schedule through the same use case as study; if that fails the
// rating stays and the summary shows the review as not recorded. The last rating closes the
// session.
func Rate(ctx context.Context, db Store, t *Turn, sched srs.Scheduler, rating srs.Rating, fix *Checklist, now time.Time) (Rated, error) {
	a := t.Answer
	if t.HasFollowUp() {
		if !a.Checked || a.FollowUpAnsweredAt.IsZero() { // the follow-up comes first
			return Rated{}, nil
		}
	} else if a.AnsweredAt.IsZero() {
		return Rated{}, nil
	} else if !a.Checked && fix != nil {
		if err := saveChecklist(ctx, db, t, *fix); err != nil {
			return Rated{}, err
		}
	}
	err := db.ClaimMockRating(ctx, t.Session.ID, t.Pos, int(rating), now)
	if errors.Is(err, store.ErrStale) {
		return Rated{}, nil
	} else if err != nil {
		return Rated{}, err
	}
	out := Rated{Stored: true}
	if t.Session.Settings.RecordReviews {
		res, err := study.Rate(ctx, db, sched, study.Answer{UserID: t.Session.UserID, CardID: t.Card.ID, Rating: rating,
			At: now, Took: a.Used, Mode: study.ModeMock, ShownReps: -1})
		if err == nil {
			out.Reviewed = true
			err = db.SetMockReviewLog(ctx, t.Session.ID, t.Pos, res.LogID)
		}
		out.Unlogged = err
	}
	if t.Pos == len(t.Session.Answers)-1 {
		if err := db.FinishMockSession(ctx, t.Session.ID, store.MockFinished, now); err != nil {
			return out, err
		}
		out.Finished = true
	}
	return out, nil
}
