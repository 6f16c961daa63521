package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
)

func settingsForm(date string) url.Values {
	return url.Values{"retention": {"0.90"}, "new_per_day": {"2"}, "depth": {"basics"}, "timezone": {"UTC"},
		"keep_recordings": {"5"}, "interview_date": {date}}
}

func TestInterviewDate(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("ana", store.RoleMember)
	ctx := context.Background()
	u, _ := e.db.UserByName(ctx, "ana")
	cards := e.srv.deck().Cards
	// One card studied long ago, due two months from now: past the date set below.
	studied := cards[0].ID
	before := srs.Card{}
	after := srs.Card{State: srs.Review, Stability: 80, Difficulty: 5, LastReview: e.now.AddDate(0, 0, -20),
		Due: e.now.AddDate(0, 0, 60), Reps: 1}
	if _, err := e.db.RecordReview(ctx, u.ID, studied, before, after, srs.Easy, e.now.AddDate(0, 0, -20), 1000, store.ModeStudy); err != nil {
		t.Fatal(err)
	}

	_, doc := e.get(c, "/")
	if doc.Find("#countdown").Length() != 0 {
		t.Fatal("countdown shown without a date")
	}
	if got := doc.Find("#new-now").Text(); got != "2 new" {
		t.Fatalf("new today without a date: %q, want 2 (the setting)", got)
	}

	for _, bad := range []string{"2026-13-01", "2026-11-01", "2031-01-01"} {
		resp, doc := e.post(c, "/settings", settingsForm(bad))
		if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find("#interview_date-error").Text() == "" {
			t.Errorf("date %s: status %d, error %q; want 422 naming the field", bad, resp.StatusCode, doc.Find("#interview_date-error").Text())
		}
	}

	date := e.now.AddDate(0, 0, 12).Format(time.DateOnly)
	if resp, _ := e.post(c, "/settings", settingsForm(date)); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the date: status %d", resp.StatusCode)
	}
	unseen := len(cards) - 1
	perDay := max(2, (unseen+8)/9) // 12 days to go, every card seen 3 days before: 9 days
	_, doc = e.get(c, "/")
	want := fmt.Sprintf("12 days to go: %d cards to learn, %d a day.", unseen, min(perDay, unseen))
	if got := strings.TrimSpace(doc.Find("#countdown").Text()); got != want {
		t.Errorf("home says %q, want %q", got, want)
	}
	if got := doc.Find("#new-now").Text(); got != fmt.Sprintf("%d new", min(perDay, unseen)) {
		t.Errorf("new today with the date: %q, want %d", got, min(perDay, unseen))
	}
	_, doc = e.get(c, "/settings")
	if v, _ := doc.Find("#interview_date").Attr("value"); v != date {
		t.Errorf("settings show date %q, want %q", v, date)
	}
	// The studied card, due after the date, now comes back in the three days before it.
	st, _, err := e.db.CardState(ctx, u.ID, studied)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Date(2026, 11, 14, 4, 0, 0, 0, time.UTC)
	if st.Due.Before(deadline.AddDate(0, 0, -3)) || !st.Due.Before(deadline) {
		t.Errorf("studied card due %v, want within the 3 days before %v", st.Due, deadline)
	}

	// Removing the date: no countdown, the setting's new cards, FSRS's own intervals.
	if resp, _ := e.post(c, "/settings", settingsForm("")); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("removing the date: status %d", resp.StatusCode)
	}
	_, doc = e.get(c, "/")
	if doc.Find("#countdown").Length() != 0 || doc.Find("#new-now").Text() != "2 new" {
		t.Errorf("after removing the date: countdown %q, new %q", doc.Find("#countdown").Text(), doc.Find("#new-now").Text())
	}
	u, _ = e.db.UserByName(ctx, "ana")
	if sc := userScheduler(u); !sc.Deadline.IsZero() {
		t.Errorf("scheduler keeps a deadline %v after the date was removed", sc.Deadline)
	}
}

// seedHistory stores the answers of a simulated learner as the user's own, in one transaction
// (the history an import writes), not one per answer.
func seedHistory(t *testing.T, db *store.DB, userID int64, log []srs.Answer) {
	t.Helper()
	sc := srs.DefaultScheduler()
	states := map[string]srs.Card{}
	var order []string
	byCard := map[string]*store.CardHistory{}
	for _, a := range log {
		before := states[a.CardID]
		after := sc.ReviewCard(a.CardID, before, a.Rating, a.Time)
		h := byCard[a.CardID]
		if h == nil {
			h = &store.CardHistory{CardID: a.CardID}
			byCard[a.CardID] = h
			order = append(order, a.CardID)
		}
		h.Answers = append(h.Answers, store.HistoryAnswer{Rating: a.Rating, At: a.Time, DurationMS: 1000, Before: before, After: after})
		states[a.CardID] = after
	}
	im := store.AnkiImport{UserID: userID}
	for _, id := range order {
		im.History = append(im.History, *byCard[id])
	}
	if n, err := db.ImportAnki(context.Background(), im, time.Now()); err != nil || n != len(order) {
		t.Fatalf("seeding %d cards' history: %d stored, %v", len(order), n, err)
	}
}

func TestFitToMyReviews(t *testing.T) {
	e := newEnv(t, Config{})
	c := e.signedIn("bo", store.RoleMember)
	ctx := context.Background()
	u, _ := e.db.UserByName(ctx, "bo")

	_, doc := e.get(c, "/settings")
	if _, off := doc.Find("#fit-start").Attr("disabled"); !off || !strings.Contains(doc.Find("#fit-needs").Text(), "you have 0") {
		t.Fatalf("no history: fit button disabled %v, needs %q", off, doc.Find("#fit-needs").Text())
	}
	if resp, _ := e.post(c, "/settings/fit", nil); resp.StatusCode != http.StatusConflict {
		t.Errorf("fit without history: status %d, want 409", resp.StatusCode)
	}

	// A learner who forgets much more slowly than the defaults assume.
	slow := [21]float64{1.2, 3.5, 9, 25, 5.2, 0.6, 2.2, 0.01, 2.2, 0.12, 1.2, 1.1, 0.08, 0.35, 1.3, 0.5, 2.4, 0.4, 0.2, 0.1, 0.35}
	l := srs.Learner{Memory: slow, Scheduler: srs.DefaultScheduler(), Cards: 500, NewPerDay: 10, Days: 150, Seed: 7,
		Start: e.now.AddDate(0, 0, -151)}
	seedHistory(t, e.db, u.ID, l.Simulate())

	_, doc = e.get(c, "/settings")
	if _, off := doc.Find("#fit-start").Attr("disabled"); off || doc.Find("#fit-needs").Length() != 0 {
		t.Fatalf("with history: fit button disabled %v, needs %q", off, doc.Find("#fit-needs").Text())
	}
	resp, _ := e.post(c, "/settings/fit", nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/settings?fit=started#fit" {
		t.Fatalf("fit: status %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var status string
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, doc = e.get(c, "/settings")
		status, _ = doc.Find("#fit-status").Attr("data-status")
		if status != store.FitRunning {
			break
		}
	}
	if status != store.FitApplied {
		t.Fatalf("fit ended %q: %s", status, doc.Find("#fit-status").Text())
	}
	u, _ = e.db.UserByName(ctx, "bo")
	w, ok := store.DecodeParams(u.Settings.FSRSParams)
	if !ok || userScheduler(u).Params != w || w == srs.DefaultParams {
		t.Fatalf("after the fit the user's weights are %v (stored %q)", w, u.Settings.FSRSParams)
	}
	// The slow learner's first Good stability (w2 = 9) is far above the default 2.3.
	if w[2] < 4 {
		t.Errorf("fitted w2 = %v, want it well above the default %v", w[2], srs.DefaultParams[2])
	}
	// The page that first said "applied" may have loaded the user before the fit finished (the
	// session and the fit are read apart), so look again now that the weights are stored.
	_, doc = e.get(c, "/settings")
	if doc.Find("#fit-revert").Length() == 0 {
		t.Fatal("no revert button with fitted weights in use")
	}

	if resp, _ := e.post(c, "/settings/fit/revert", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("revert: status %d", resp.StatusCode)
	}
	u, _ = e.db.UserByName(ctx, "bo")
	if u.Settings.FSRSParams != "" || userScheduler(u).Params != srs.DefaultParams {
		t.Errorf("after revert: stored weights %q", u.Settings.FSRSParams)
	}
	_, doc = e.get(c, "/settings?fit=reverted")
	if doc.Find("#fit-revert").Length() != 0 || doc.Find("#fit-notice").Length() == 0 {
		t.Error("after revert the page still offers a revert, or says nothing")
	}
}
