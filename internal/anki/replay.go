package anki

import (
	"time"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/study"
)

// Replayed is one Anki answer given to the scheduler: the states before and after, in real time.
type Replayed struct {
	Rating        srs.Rating
	At            time.Time
	TookMS        int64
	Before, After srs.Card
}

// Replay runs a card's Anki history (one card's reviews, oldest first) through sc and returns
// its state and the answers replayed; none when the history holds no usable answer. It keeps
// to the rules Anki applies when it computes FSRS memory states from a review log:
//
//   - the history starts at the last run of learning answers (the card's latest introduction),
//     or without one at the first answer the learner gave after any reset;
//   - a reset to new ("Forget") with no answer after it leaves no history;
//   - entries no answer made (set due date, reset, rescheduling) and reviews in a filtered deck
//     that did not reschedule (cram) are skipped;
//   - days are counted between study days, which start at 04:00 in loc (study.Day), not as
//     24-hour spans: an answer at 23:00 and one at 05:00 the next morning are a day apart.
func Replay(sc srs.Scheduler, id string, revs []Review, loc *time.Location) (srs.Card, []Replayed) {
	revs = usableHistory(revs)
	var out []Replayed
	var virt, real srs.Card
	for i, r := range revs {
		at := r.At()
		// The scheduler counts 24-hour spans; placing each answer at the start of its study
		// day (plus i ms, to keep the order within a day) makes those spans whole study days.
		v := study.Day(at, loc).Add(time.Duration(i) * time.Millisecond)
		next := sc.ReviewCard(id, virt, srs.Rating(r.Ease), v)
		after := next
		after.LastReview = at
		after.Due = at.Add(next.Due.Sub(v))
		out = append(out, Replayed{Rating: srs.Rating(r.Ease), At: at, TookMS: r.TookMS, Before: real, After: after})
		virt, real = next, after
	}
	return real, out
}

// usableHistory keeps the answers Replay uses, per the rules in its comment.
func usableHistory(revs []Review) []Review {
	start, firstGrade := -1, -1
	for i := len(revs) - 1; i >= 0; i-- {
		r := revs[i]
		if cram(r) {
			continue
		}
		graded := r.Ease >= 1 && r.Ease <= 4
		if graded {
			firstGrade = i
		}
		if graded && r.Kind == RevLearning {
			start = i
			continue
		}
		if start >= 0 {
			break // the entry before the last learning run
		}
		if r.Kind == RevManual && r.Factor == 0 { // a reset
			if firstGrade < 0 {
				return nil
			}
			break
		}
	}
	if start < 0 {
		start = firstGrade
	}
	if start < 0 {
		return nil
	}
	var keep []Review
	for _, r := range revs[start:] {
		if r.Kind == RevManual || r.Kind == RevRescheduled || r.Ease < 1 || r.Ease > 4 || cram(r) {
			continue
		}
		keep = append(keep, r)
	}
	return keep
}

func cram(r Review) bool { return r.Kind == RevFiltered && r.Factor == 0 }
