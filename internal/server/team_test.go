package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/internal/srs"
	"github.com/rehearse/rehearse/internal/store"
)

func TestTeamView(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Config{})
	ctx := context.Background()
	viewer := e.signedIn("carol", store.RoleMember)
	e.signedIn("ada", store.RoleAdmin)
	e.signedIn("bob", store.RoleMember)
	e.signedIn("hidden", store.RoleMember)
	user := func(name string) *store.User {
		u, err := e.db.UserByName(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	hid := user("hidden")
	// Private by default: ada and bob choose to share, "hidden" does not.
	for _, n := range []string{"ada", "bob"} {
		if err := e.db.SetSharing(ctx, user(n).ID, true, e.now); err != nil {
			t.Fatal(err)
		}
	}
	sch := srs.DefaultScheduler()
	sch.Fuzz = false
	review := func(u *store.User, card string, at time.Time, r srs.Rating) {
		t.Helper()
		before, _, err := e.db.CardState(ctx, u.ID, card)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.db.RecordReview(ctx, u.ID, card, before, sch.Review(before, r, at), r, at, 1000, store.ModeStudy); err != nil {
			t.Fatal(err)
		}
	}
	// ada studied sample-eager yesterday and today (a 2-day streak); bob forgot it 20 days ago.
	review(user("ada"), "sample-eager", e.now.AddDate(0, 0, -1), srs.Good)
	review(user("ada"), "sample-eager", e.now.Add(-time.Hour), srs.Good)
	review(user("bob"), "sample-eager", e.now.AddDate(0, 0, -20), srs.Again)
	review(hid, "mock-cooperative", e.now, srs.Good)

	resp, doc := e.get(viewer, "/team")
	if resp.StatusCode != 200 {
		t.Fatalf("team: %d", resp.StatusCode)
	}
	rows := doc.Find("#team-members tbody tr")
	var names []string
	rows.Each(func(_ int, s *goquery.Selection) { names = append(names, s.Find("th").Text()) })
	if strings.Join(names, ",") != "ada,bob,carol" {
		t.Fatalf("members shown to a member: %v (those who do not share must be left out)", names)
	}
	ada := doc.Find("#team-members tr[data-member=ada]")
	if ada.Find(".r7").Text() != "2" || ada.Find(".r30").Text() != "2" || ada.Find(".streak").Text() != "2" {
		t.Fatalf("ada's row: 7d=%s 30d=%s streak=%s", ada.Find(".r7").Text(), ada.Find(".r30").Text(), ada.Find(".streak").Text())
	}
	bob := doc.Find("#team-members tr[data-member=bob]")
	if bob.Find(".r7").Text() != "0" || bob.Find(".r30").Text() != "1" || bob.Find(".streak").Text() != "0" || bob.Find(".mock-avg").Text() != "–" {
		t.Fatalf("bob's row: %q", bob.Text())
	}
	// Coverage: one column per shown member, a number in every studied cell, a title for each.
	if n := doc.Find("#coverage thead th.member").Length(); n != 3 {
		t.Fatalf("coverage columns = %d", n)
	}
	cell := doc.Find("#coverage tr[data-card=sample-eager] td[data-member=ada]")
	title, _ := cell.Attr("title")
	if !cell.HasClass("b4") || cell.Text() == "" || !strings.Contains(title, "ada · sample-eager") {
		t.Fatalf("ada's cell: class=%q text=%q title=%q", cell.AttrOr("class", ""), cell.Text(), title)
	}
	if c := doc.Find("#coverage tr[data-card=sample-eager] td[data-member=carol]"); !c.HasClass("unseen") {
		t.Fatal("an unstudied cell is not marked unseen")
	}
	if doc.Find("#coverage td[data-member=hidden]").Length() != 0 {
		t.Fatal("hidden member in the grid")
	}
	// Weakest: only sample-eager has been studied by a shown member; ada recalled it, bob did not.
	weak := doc.Find("#weakest li")
	if weak.Length() != 1 || !strings.Contains(weak.Text(), "recall 50 % from 2 of 3 members") {
		t.Fatalf("weakest: %q", weak.Text())
	}
	if resp, _ := e.get(e.client(), "/team"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("anonymous /team: %d", resp.StatusCode)
	}
	// An admin sees everyone, sharing or not.
	_, doc = e.get(e.signedIn("root", store.RoleAdmin), "/team")
	names = nil
	doc.Find("#team-members tbody tr").Each(func(_ int, s *goquery.Selection) { names = append(names, s.Find("th").Text()) })
	if strings.Join(names, ",") != "ada,bob,carol,hidden,root" {
		t.Fatalf("members shown to an admin: %v", names)
	}
}

// TestTeamWeakestFromThoseWhoStudied: a member who never studied a card is not evidence that the
// team forgets it. One member rates a card Again and the other never sees it: 0 % from 1 of 2.
// A card rated Easy by one member is 100 % from 1 of 2, and ranks after it.
func TestTeamWeakestFromThoseWhoStudied(t *testing.T) {
	e := newEnv(t, Config{})
	ctx := context.Background()
	viewer := e.signedIn("ada", store.RoleMember)
	e.signedIn("bob", store.RoleMember)
	ada, err := e.db.UserByName(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if bob, _ := e.db.UserByName(ctx, "bob"); e.db.SetSharing(ctx, bob.ID, true, e.now) != nil {
		t.Fatal("bob could not share")
	}
	sch := srs.DefaultScheduler()
	sch.Fuzz = false
	for card, r := range map[string]srs.Rating{"sample-eager": srs.Again, "mock-cooperative": srs.Easy} {
		after := sch.Review(srs.Card{}, r, e.now.Add(-time.Minute))
		if _, err := e.db.RecordReview(ctx, ada.ID, card, srs.Card{}, after, r, e.now.Add(-time.Minute), 1000, store.ModeStudy); err != nil {
			t.Fatal(err)
		}
	}
	_, doc := e.get(viewer, "/team")
	weak := doc.Find("#weakest li")
	if weak.Length() != 2 {
		t.Fatalf("weakest lists %d cards, want 2: %q", weak.Length(), weak.Text())
	}
	first, second := weak.Eq(0), weak.Eq(1)
	if first.AttrOr("data-card", "") != "sample-eager" || first.Find(".recall").Text() != "recall 0 % from 1 of 2 members" {
		t.Fatalf("weakest card: %s %q, want sample-eager at 0 %% from 1 of 2", first.AttrOr("data-card", ""), first.Find(".recall").Text())
	}
	if second.AttrOr("data-card", "") != "mock-cooperative" || second.Find(".recall").Text() != "recall 100 % from 1 of 2 members" {
		t.Fatalf("second card: %s %q, want mock-cooperative at 100 %% from 1 of 2", second.AttrOr("data-card", ""), second.Find(".recall").Text())
	}
}
