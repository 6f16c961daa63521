package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// A card page's history is worded once per change of the user's progress and kept with it
// (store.KeepCardProgressMemo), worded again in a new zone, and again after an answer.
func TestCardProgressWordedOncePerChange(t *testing.T) {
	t.Parallel()
	e, c, uid := studyEnv(t, "a:x:one")
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 22, 30, 0, 0, time.UTC)
	e.seed(uid, "one", srs.Card{State: srs.Review, Due: at.Add(72 * time.Hour), Stability: 3, Difficulty: 5}, at)
	page := func() (rows int, first string) {
		t.Helper()
		_, doc := e.get(c, "/cards/one")
		trs := doc.Find("#history tbody tr")
		return trs.Length(), strings.TrimSpace(trs.First().Find("td").First().Text())
	}
	memo := func() *progressMemo {
		t.Helper()
		_, v, _, err := e.db.CardProgressMemo(ctx, uid, "one")
		if err != nil {
			t.Fatal(err)
		}
		m, _ := v.(*progressMemo)
		return m
	}
	if n, when := page(); n != 1 || when != "1 Nov 2026 22:30" {
		t.Fatalf("first page: %d rows, newest at %q", n, when)
	}
	m := memo()
	if m == nil || m.loc != time.UTC || len(m.view.History) != 1 {
		t.Fatalf("the worded progress was not kept: %+v", m)
	}
	page()
	if memo() != m {
		t.Fatal("a second page worded the unchanged progress again")
	}

	u, err := e.db.UserByName(ctx, "sam")
	if err != nil {
		t.Fatal(err)
	}
	st := u.Settings
	st.TimeZone = "Asia/Tokyo" // UTC+9, no daylight saving
	if err := e.db.UpdateSettings(ctx, uid, st); err != nil {
		t.Fatal(err)
	}
	if _, when := page(); when != "2 Nov 2026 07:30" {
		t.Fatalf("after a zone change the history reads %q, want Tokyo's 2 Nov 2026 07:30", when)
	}
	if m := memo(); m == nil || m.loc.String() != "Asia/Tokyo" {
		t.Fatalf("the memo was not worded again in the new zone: %+v", m)
	}

	e.seed(uid, "one", srs.Card{State: srs.Review, Due: at.Add(240 * time.Hour), Stability: 9, Difficulty: 5}, at.Add(time.Hour))
	if m := memo(); m != nil {
		t.Fatal("an answer left the old wording kept")
	}
	if n, when := page(); n != 2 || when != "2 Nov 2026 08:30" {
		t.Fatalf("after an answer: %d rows, newest at %q", n, when)
	}
}
