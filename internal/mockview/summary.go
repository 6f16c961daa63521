package mockview

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Rows scores every question of a session, given its recordings; only rated questions count. A
// question's key points are those of the session's depth, from the current deck d.
func Rows(d *deck.Deck, sess *store.MockSession, recs []store.Recording) []views.MockSummaryRow {
	spoken, followUps := map[int]store.Recording{}, map[int]store.Recording{} // the latest recording of each
	for _, rec := range recs {
		if rec.FollowUp {
			followUps[rec.MockPosition] = rec
		} else {
			spoken[rec.MockPosition] = rec
		}
	}
	rows := make([]views.MockSummaryRow, 0, len(sess.Answers))
	for _, a := range sess.Answers {
		row := views.MockSummaryRow{Pos: a.Position, CardID: a.CardID, Used: a.Used, Target: a.Target,
			Expired: a.Expired, PitfallsHit: len(a.PitfallsHit), Rating: a.Rating,
			Answered: a.Rating > 0, Recorded: a.ReviewLogID > 0}
		var voiced time.Duration
		said := a.Typed
		if rec, ok := spoken[a.Position]; ok {
			row.RecordingID, row.Spoken, row.SpokenText = rec.ID, rec.Spoken, SpokenText(rec.Spoken, rec.Target)
			voiced = rec.Spoken
			said += "\n" + rec.Transcript
		}
		fu := -1
		fuSaid := a.FollowUpTyped
		if rec, ok := followUps[a.Position]; ok {
			fuSaid += "\n" + rec.Transcript
		}
		if !a.FollowUpAnsweredAt.IsZero() {
			fu = a.FollowUpIndex
		}
		c, _ := d.Card(a.CardID) // nil when the card has left the deck
		res := interview.Judge(c, sess.Settings.Depth, interview.Stored{Covered: a.Covered, PitfallsHit: len(a.PitfallsHit),
			HasText: strings.TrimSpace(a.Typed) != "", Spoken: voiced, Used: a.Used, Target: a.Target, Rating: a.Rating,
			AskedFollowUp: fu >= 0, FollowUp: fu, FollowUpAnswer: fuSaid})
		row.Empty, row.Bullets, row.Covered, row.Typed = res.Empty, res.Bullets, res.Covered, !res.Spoken
		if res.FollowUpAsked {
			row.FollowUpMade = fmt.Sprintf("%.0f %%", 100*res.FollowUpMade)
		}
		if c != nil {
			row.Card = c
			row.Level = interview.Level(c, said)
			if a.FollowUpIndex >= 0 && a.FollowUpIndex < len(c.FollowUps) && !a.FollowUpAnsweredAt.IsZero() {
				row.FollowUp = c.FollowUps[a.FollowUpIndex].Question
				row.FollowUpUsed, row.FollowUpTarget = a.FollowUpUsed, a.FollowUpTarget
			}
		}
		if row.Answered {
			row.Score = interview.Score(res)
		}
		rows = append(rows, row)
	}
	return rows
}

// SameLink rebuilds the setup for a seeded session, so others get the same questions.
func SameLink(st store.MockSettings) string {
	if !st.Seeded {
		return ""
	}
	q := url.Values{}
	q.Set("seed", strconv.FormatUint(st.Seed, 10))
	q["topic"] = st.Topics
	q["tag"] = st.Tags
	q.Set("n", strconv.Itoa(st.N))
	q.Set("depth", st.Depth)
	q.Set("clock", st.Clock)
	if st.FollowUps {
		q.Set("followups", "1")
	}
	if st.Target > 0 {
		q.Set("timer", strconv.Itoa(int(st.Target/time.Second)))
	}
	return "/mock/new?" + q.Encode()
}

// Summary is a session's summary page from its scored rows.
func Summary(sess *store.MockSession, rows []views.MockSummaryRow) views.MockSummary {
	v := views.MockSummary{ID: sess.ID, Status: sess.Status, Created: sess.CreatedAt, Rows: rows,
		Explanation: interview.ScoreExplanation, SameLink: SameLink(sess.Settings), Recording: sess.Settings.RecordReviews}
	var scores []float64
	for i := range v.Rows {
		row := &v.Rows[i]
		if row.Recorded {
			v.Recorded++
		}
		if !row.Answered {
			continue
		}
		scores = append(scores, row.Score)
		if !row.Empty {
			v.WithContent++
		}
		// Strongest and weakest over every rated question, a zero included.
		if v.Strongest == nil || row.Score > v.Strongest.Score {
			v.Strongest = row
		}
		if v.Weakest == nil || row.Score < v.Weakest.Score {
			v.Weakest = row
		}
	}
	v.Rated, v.Overall = len(scores), interview.Overall(scores)
	if v.Rated < 2 || v.Strongest.Score == v.Weakest.Score { // one answer has no weakest
		v.Weakest = nil
	}
	return v
}

// Overall is a session's overall score from its rows, and whether any question was rated.
func Overall(rows []views.MockSummaryRow) (float64, bool) {
	var scores []float64
	for _, q := range rows {
		if q.Answered {
			scores = append(scores, q.Score)
		}
	}
	return interview.Overall(scores), len(scores) > 0
}

// History is the history page: one row per session (given newest first, each with its scored
// rows) and the trend chart of those with a score.
func History(sessions []*store.MockSession, rows [][]views.MockSummaryRow) views.MockHistory {
	var v views.MockHistory
	var trend []trendSession
	for i, sess := range sessions {
		row := views.MockHistoryRow{ID: sess.ID, Created: sess.CreatedAt, Status: sess.Status, N: len(sess.Answers)}
		var used, target time.Duration
		timeouts := 0
		for _, q := range rows[i] {
			if !q.Answered {
				continue
			}
			if q.Empty { // a silent timeout used no time: it is marked, not drawn as time used
				if q.Expired {
					timeouts++
				}
				continue
			}
			row.Answered++
			used += q.Used
			target += q.Target
		}
		row.Time, row.Timeouts = used, timeouts
		row.Score, row.HasScore = Overall(rows[i])
		v.Rows = append(v.Rows, row)
		if row.HasScore {
			trend = append(trend, trendSession{at: sess.CreatedAt, score: row.Score, ratio: float64(used) / float64(max(target, 1)), timeouts: timeouts})
		}
	}
	v.Trend = trendChart(trend)
	return v
}

type trendSession struct {
	at       time.Time
	score    float64 // 0..100
	ratio    float64 // time used over target, answers with content only
	timeouts int     // questions that ran out with nothing said or typed
}

// trendChart lays sessions (given newest first) out oldest to newest: the score on a 0–100
// axis and the time used as a share of the target, scaled so the largest share fits.
func trendChart(sessions []trendSession) views.MockTrend {
	const w, h, left, right, top, bottom = 600.0, 220.0, 30.0, 10.0, 10.0, 20.0
	t := views.MockTrend{W: w, H: h, MaxRatio: 1}
	for _, s := range sessions {
		t.MaxRatio = max(t.MaxRatio, s.ratio)
	}
	n := len(sessions)
	var score, tm []string
	for i := range sessions {
		s := sessions[n-1-i]
		x := left
		if n > 1 {
			x += float64(i) * (w - left - right) / float64(n-1)
		}
		sy := top + (h-top-bottom)*(1-s.score/100)
		ty := top + (h-top-bottom)*(1-s.ratio/t.MaxRatio)
		label := fmt.Sprintf("%s: score %.0f, time %.0f%% of target", s.at.Format("2 Jan 15:04"), s.score, 100*s.ratio)
		if s.timeouts > 0 {
			label += fmt.Sprintf(", %d ran out silent", s.timeouts)
		}
		t.Points = append(t.Points, views.TrendPoint{X: x, ScoreY: sy, TimeY: ty, Timeouts: s.timeouts, Label: label})
		score = append(score, fmt.Sprintf("%.1f,%.1f", x, sy))
		tm = append(tm, fmt.Sprintf("%.1f,%.1f", x, ty))
	}
	t.Score, t.Time = strings.Join(score, " "), strings.Join(tm, " ")
	return t
}
