package store

import (
	"errors"
	"testing"
	"time"
)

func TestTokensRevokedAndDisabled(t *testing.T) {
	db := openTest(t)
	ctx := t.Context()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	u, err := db.CreateUser(ctx, "ci", "x", RoleMember, now)
	if err != nil {
		t.Fatal(err)
	}
	id, err := db.CreateToken(ctx, u.ID, "deck CI", []byte("digest-1"), now)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := db.UserByToken(ctx, []byte("digest-1"), now.Add(2*time.Minute)); err != nil || got.ID != u.ID {
		t.Fatalf("token user: %v %v", got, err)
	}
	if _, err := db.UserByToken(ctx, []byte("other"), now); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown token: %v", err)
	}
	toks, _ := db.Tokens(ctx, u.ID)
	if len(toks) != 1 || toks[0].LastUsed.IsZero() {
		t.Errorf("tokens %+v: use not recorded", toks)
	}
	if err := db.RevokeToken(ctx, u.ID+1, id, now); !errors.Is(err, ErrNotFound) {
		t.Errorf("another user revoked the token: %v", err)
	}
	if err := db.RevokeToken(ctx, u.ID, id, now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UserByToken(ctx, []byte("digest-1"), now); !errors.Is(err, ErrRevoked) {
		t.Errorf("revoked token: %v", err)
	}
	// Disabling an account ends its tokens: enabling it again does not bring them back.
	db.CreateToken(ctx, u.ID, "second", []byte("digest-2"), now)
	if err := db.SetDisabled(ctx, u.ID, true, now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UserByToken(ctx, []byte("digest-2"), now); !errors.Is(err, ErrRevoked) {
		t.Errorf("disabled user's token: %v", err)
	}
	if err := db.SetDisabled(ctx, u.ID, false, now); err != nil {
		t.Fatal(err)
	}
	if _, err := db.UserByToken(ctx, []byte("digest-2"), now); !errors.Is(err, ErrRevoked) {
		t.Errorf("token after disable and enable: %v", err)
	}
}

func TestDeckCardsAndRevisions(t *testing.T) {
	db := openTest(t)
	ctx := t.Context()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	u, _ := db.CreateUser(ctx, "ada", "x", RoleAdmin, now)
	c := DeckCard{ID: "a", Path: "x/a.md", Markdown: "one"}
	if _, err := db.SaveDeckCard(ctx, c, ActionSave, u.ID, now); err != nil {
		t.Fatal(err)
	}
	c.Markdown = "two"
	if _, err := db.SaveDeckCard(ctx, c, ActionSave, 0, now.Add(time.Minute)); err != nil { // from the CLI: no user
		t.Fatal(err)
	}
	cards, _ := db.DeckCards(ctx)
	if len(cards) != 1 || cards[0].Markdown != "two" {
		t.Fatalf("cards %+v", cards)
	}
	if err := db.RemoveDeckCard(ctx, "a", ActionDelete, u.ID, now.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := db.RemoveDeckCard(ctx, "a", ActionDelete, u.ID, now); !errors.Is(err, ErrNotFound) {
		t.Errorf("second removal: %v", err)
	}
	revs, _ := db.Revisions(ctx, "a")
	if len(revs) != 3 || revs[0].Action != ActionDelete || revs[1].By != "" || revs[2].By != "ada" || revs[2].Markdown != "one" {
		t.Errorf("revisions %+v", revs)
	}
	// A batch is all or nothing: a removal of a card not stored rolls the saves back.
	err := db.ApplyDeckChanges(ctx, []DeckCard{{ID: "b", Path: "x/b.md", Markdown: "b"}}, []Removal{{ID: "missing", Action: ActionDelete}}, ActionSave, u.ID, now)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("batch: %v", err)
	}
	if cards, _ := db.DeckCards(ctx); len(cards) != 0 {
		t.Errorf("a failed batch stored %+v", cards)
	}
}
