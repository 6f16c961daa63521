// Package team builds the team page: whose figures a viewer may see, each member's study and
// mock figures, the cards × members grid of recall now, and the cards the team is weakest on.
// Private by default: admins see every member; a member sees themselves and those who chose to
// share on /account.
package team

import (
	"context"
	"math"
	"sort"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

// Store is what the team page reads (the store implements it).
type Store interface {
	TeamUsers(ctx context.Context) ([]*store.User, error)
	Sharing(ctx context.Context) (map[int64]bool, error)
	ReviewCounts(ctx context.Context, since ...time.Time) (map[int64][]int, error)
	MasteredCounts(ctx context.Context, minStability float64) (map[int64]int, error)
	FinishedMockAnswers(ctx context.Context) (map[int64][]store.MockAnswer, error)
	TeamCardStates(ctx context.Context) (map[int64]map[string]srs.Card, error)
	TeamLastRatings(ctx context.Context) (map[int64]map[string]int, error)
	DailyActivity(ctx context.Context, userID int64, since time.Time, loc *time.Location) ([]store.DayActivity, error)
}

// masteredStability is the stability (days) from which a card counts as mastered.
const masteredStability = 21

// weakestShown is how many of the team's weakest cards the page lists.
const weakestShown = 10

// Page is the team page as viewer sees it at now, over the cards of d.
func Page(ctx context.Context, db Store, d *deck.Deck, viewer *store.User, now time.Time) (views.TeamPage, error) {
	all, err := db.TeamUsers(ctx)
	if err != nil {
		return views.TeamPage{}, err
	}
	sharing, err := db.Sharing(ctx)
	if err != nil {
		return views.TeamPage{}, err
	}
	users := Visible(viewer, all, sharing)
	counts, err := db.ReviewCounts(ctx, now.AddDate(0, 0, -7), now.AddDate(0, 0, -30))
	if err != nil {
		return views.TeamPage{}, err
	}
	mastered, err := db.MasteredCounts(ctx, masteredStability)
	if err != nil {
		return views.TeamPage{}, err
	}
	mocks, err := db.FinishedMockAnswers(ctx)
	if err != nil {
		return views.TeamPage{}, err
	}
	states, err := db.TeamCardStates(ctx)
	if err != nil {
		return views.TeamPage{}, err
	}
	last, err := db.TeamLastRatings(ctx)
	if err != nil {
		return views.TeamPage{}, err
	}
	vm := views.TeamPage{Private: !sharing[viewer.ID], Admin: viewer.IsAdmin()}
	for _, u := range users {
		m := views.TeamMember{Name: u.Username, Mastered: mastered[u.ID]}
		if c := counts[u.ID]; c != nil {
			m.Reviews7, m.Reviews30 = c[0], c[1]
		}
		if m.Streak, err = streak(ctx, db, u, now); err != nil {
			return views.TeamPage{}, err
		}
		m.Mocks, m.MockAvg = MockScores(d, mocks[u.ID])
		vm.Members = append(vm.Members, m)
	}
	vm.Rows, vm.Weakest = Coverage(d, users, states, last, now)
	return vm, nil
}

// Visible is whose figures viewer may see: everyone for an admin; for a member, themselves
// and those who share.
func Visible(viewer *store.User, all []*store.User, sharing map[int64]bool) []*store.User {
	if viewer.IsAdmin() {
		return all
	}
	var out []*store.User
	for _, u := range all {
		if u.ID == viewer.ID || sharing[u.ID] {
			out = append(out, u)
		}
	}
	return out
}

// streak is the member's current run of study days, in their own time zone.
func streak(ctx context.Context, db Store, u *store.User, now time.Time) (int, error) {
	loc, err := time.LoadLocation(u.Settings.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	days, err := db.DailyActivity(ctx, u.ID, now.AddDate(-1, 0, -1), loc)
	if err != nil {
		return 0, err
	}
	cur, _ := store.Streaks(days, study.Day(now, loc))
	return cur, nil
}

// MockScores counts finished mock sessions and averages their overall scores, each answer judged
// as the session's summary judges it (interview.Judge) and, as there, only rated answers counted.
func MockScores(d *deck.Deck, answers []store.MockAnswer) (sessions int, avg float64) {
	var overall, cur []float64
	for i, a := range answers {
		if a.Rating > 0 {
			c, _ := d.Card(a.CardID)
			ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
			cur = append(cur, interview.Score(interview.Judge(c, a.Depth, interview.Stored{Covered: a.Covered,
				PitfallsHit: a.PitfallsHit, HasText: a.HasText, Spoken: ms(a.SpokenMS), Used: ms(a.UsedMS),
				Target: ms(a.TargetMS), Rating: a.Rating})))
		}
		if (i == len(answers)-1 || answers[i+1].SessionID != a.SessionID) && len(cur) > 0 {
			overall = append(overall, interview.Overall(cur))
			cur = nil
		}
	}
	return len(overall), interview.Overall(overall)
}

// Coverage builds the cards × members grid of retrievability now, and the cards the team is
// weakest on. Weakness comes only from the members who studied a card: its recall is the share
// of them whose latest answer was not Again (a member who never saw it is no evidence either
// way), and how many studied it is shown apart, as coverage. Ties go to the lower predicted
// recall now, then to the card more members studied.
func Coverage(d *deck.Deck, users []*store.User, states map[int64]map[string]srs.Card, last map[int64]map[string]int, now time.Time) ([]views.TeamRow, []views.TeamWeak) {
	sch := srs.DefaultScheduler()
	var rows []views.TeamRow
	var weak []views.TeamWeak
	for _, c := range d.Cards {
		row := views.TeamRow{CardID: c.ID, Question: c.Question}
		sum, studied, recalled := 0.0, 0, 0
		for _, u := range users {
			st, ok := states[u.ID][c.ID]
			if !ok || st.State == srs.New {
				row.Cells = append(row.Cells, views.TeamCell{Member: u.Username})
				continue
			}
			rv := sch.Retrievability(st, now)
			sum += rv
			studied++
			if rating, ok := last[u.ID][c.ID]; ok && rating > int(srs.Again) {
				recalled++
			}
			row.Cells = append(row.Cells, views.TeamCell{Member: u.Username, Seen: true, Pct: pct(rv)})
		}
		rows = append(rows, row)
		if studied > 0 {
			weak = append(weak, views.TeamWeak{CardID: c.ID, Question: c.Question,
				RecallPct: pct(float64(recalled) / float64(studied)), Recalled: recalled,
				PredictedPct: pct(sum / float64(studied)), Studied: studied, Of: len(users)})
		}
	}
	sort.SliceStable(weak, func(i, j int) bool {
		a, b := weak[i], weak[j]
		if a.RecallPct != b.RecallPct {
			return a.RecallPct < b.RecallPct
		}
		if a.PredictedPct != b.PredictedPct {
			return a.PredictedPct < b.PredictedPct
		}
		return a.Studied > b.Studied
	})
	if len(weak) > weakestShown {
		weak = weak[:weakestShown]
	}
	return rows, weak
}

// pct is a share as a whole percentage, clamped to 0-100 (NaN is 0).
func pct(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	return int(math.Round(min(max(v, 0), 1) * 100))
}
