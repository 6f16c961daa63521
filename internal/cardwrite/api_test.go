package cardwrite

import (
	"context"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/store"
)

// Members write cards only once an admin allows it; admins always may.
func TestCanEdit(t *testing.T) {
	_, db, _ := writer(t)
	ctx := context.Background()
	admin, member := &store.User{Role: store.RoleAdmin}, &store.User{Role: store.RoleMember}
	for _, allow := range []string{"0", "1"} {
		if err := db.SetSetting(ctx, store.SettingMembersEdit, allow); err != nil {
			t.Fatal(err)
		}
		a, _ := CanEdit(ctx, db, admin)
		m, _ := CanEdit(ctx, db, member)
		n, _ := CanEdit(ctx, db, nil)
		if !a || m != (allow == "1") || n {
			t.Errorf("members allowed %s: admin %v, member %v, nobody %v", allow, a, m, n)
		}
	}
}

// A card sent alone keeps its file and its id; a new one goes where asked, else to its topic.
func TestAPITarget(t *testing.T) {
	_, _, h := writer(t)
	d := h.Deck()
	own := d.Cards[0]
	src, _ := Text(h.Loaded(), own.File)
	if tg, problems, err := APITarget(d, own.ID, "", src); err != nil || problems != nil || tg.Path != own.File || tg.ID != own.ID {
		t.Fatalf("own card: %+v %v %v", tg, problems, err)
	}
	if _, _, err := APITarget(d, own.ID, "elsewhere/"+own.ID+".md", src); err == nil || !strings.Contains(err.Error(), "moving a card is refused") {
		t.Errorf("a move: %v", err)
	}
	if _, problems, _ := APITarget(d, "other-id", "", src); len(problems) != 1 || !strings.Contains(problems[0].Msg, "renaming is refused") {
		t.Errorf("another id: %v", problems)
	}
	if tg, _, _ := APITarget(d, "fresh", "x/fresh.md", []byte(card("fresh", ""))); tg.Path != "x/fresh.md" || tg.ID != "" {
		t.Errorf("a new card with a path: %+v", tg)
	}
}
