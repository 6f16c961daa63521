package server

import (
	"math"
	"net/http"
	"sort"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

// Team and administration: invites, accounts, the admin page and the team view. Private by
// default: on /team admins see every member's figures; a member sees their own and those of
// members who chose to share them on /account.

func (s *Server) teamRoutes(r chi.Router) {
	s.inviteRoutes(r)  // invite.go: /invite/{token}, /reset/{token}
	s.accountRoutes(r) // account.go: /account
	s.adminRoutes(r)   // admin.go: /admin, /metrics
	s.themeRoutes(r)   // theme.go: /account/theme
	r.With(s.requireUser).Get("/team", s.teamPage)
}

// visibleTo is whose figures viewer may see: everyone for an admin; for a member, themselves
// and those who share.
func visibleTo(viewer *store.User, all []*store.User, sharing map[int64]bool) []*store.User {
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

// masteredStability is the stability (days) from which a card counts as mastered.
const masteredStability = 21

// weakestShown is how many of the team's weakest cards the page lists.
const weakestShown = 10

func (s *Server) teamPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	now := s.now()
	all, err := s.db.TeamUsers(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	sharing, err := s.db.Sharing(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	me := userFrom(ctx)
	users := visibleTo(me, all, sharing)
	counts, err := s.db.ReviewCounts(ctx, now.AddDate(0, 0, -7), now.AddDate(0, 0, -30))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	mastered, err := s.db.MasteredCounts(ctx, masteredStability)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	mocks, err := s.db.FinishedMockAnswers(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	states, err := s.db.TeamCardStates(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	last, err := s.db.TeamLastRatings(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	vm := views.TeamPage{Private: !sharing[me.ID], Admin: me.IsAdmin()}
	for _, u := range users {
		m := views.TeamMember{Name: u.Username, Mastered: mastered[u.ID]}
		if c := counts[u.ID]; c != nil {
			m.Reviews7, m.Reviews30 = c[0], c[1]
		}
		if m.Streak, err = s.streak(r, u, now); err != nil {
			s.fail(w, r, err)
			return
		}
		m.Mocks, m.MockAvg = s.mockScores(mocks[u.ID])
		vm.Members = append(vm.Members, m)
	}
	vm.Rows, vm.Weakest = s.coverage(users, states, last, now)
	p := s.page(r, "Team")
	p.CSS = append(p.CSS, s.assets.URL("team.css"))
	s.render(w, r, http.StatusOK, views.Team(p, vm))
}

// streak is the member's current run of study days, in their own time zone.
func (s *Server) streak(r *http.Request, u *store.User, now time.Time) (int, error) {
	loc, err := time.LoadLocation(u.Settings.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	days, err := s.db.DailyActivity(r.Context(), u.ID, now.AddDate(-1, 0, -1), loc)
	if err != nil {
		return 0, err
	}
	cur, _ := store.Streaks(days, study.Day(now, loc))
	return cur, nil
}

// mockScores counts finished mock sessions and averages their overall scores, each answer judged
// as the session's summary judges it (interview.Judge) and, as there, only rated answers counted.
func (s *Server) mockScores(answers []store.MockAnswer) (sessions int, avg float64) {
	d := s.deck()
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

// coverage builds the cards × members grid of retrievability now, and the cards the team is
// weakest on. Weakness comes only from the members who studied a card: its recall is the share
// of them whose latest answer was not Again (a member who never saw it is no evidence either
// way), and how many studied it is shown apart, as coverage. Ties go to the lower predicted
// recall now, then to the card more members studied.
func (s *Server) coverage(users []*store.User, states map[int64]map[string]srs.Card, last map[int64]map[string]int, now time.Time) ([]views.TeamRow, []views.TeamWeak) {
	sch := srs.DefaultScheduler()
	d := s.deck()
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

func pct(v float64) int {
	if math.IsNaN(v) {
		return 0
	}
	return int(math.Round(min(max(v, 0), 1) * 100))
}
