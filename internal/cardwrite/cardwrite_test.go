package cardwrite

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
)

// writer is a Writer over a real SQLite store and a deck holder of one card file, with the
// deck's own simulation check: the wiring serve uses, without the HTTP server.
func writer(t *testing.T) (*Writer, *store.DB, *deckload.Holder) {
	t.Helper()
	src, err := os.ReadFile("../deck/testdata/valid/kafka/eager.md")
	if err != nil {
		t.Fatal(err)
	}
	base := fstest.MapFS{"kafka/eager.md": {Data: src}}
	db := storetest.Open(t)
	stored := func() (map[string][]byte, error) {
		cards, err := db.DeckCards(context.Background())
		m := map[string][]byte{}
		for _, c := range cards {
			m[c.Path] = []byte(c.Markdown)
		}
		return m, err
	}
	load := deckload.Layered(base, stored, func(f fs.FS) (*deck.Deck, error) { return deckload.Load(f, false) })
	l, err := load()
	if err != nil {
		t.Fatal(err)
	}
	h := deckload.NewHolder(l, "dir", load)
	run := func(sc rebalance.Scenario, lim rebalance.Limits) error {
		_, err := rebalance.Run(context.Background(), sc, lim)
		return err
	}
	w := New(Deps{Store: db, Loaded: h.Loaded, Reload: h.Reload,
		CheckSim: func(context.Context) func(*deck.Simulation) error { return deckload.CheckSim(run) },
		Expect:   func(context.Context, *deck.Simulation) deck.ErrorList { return nil },
		Now:      func() time.Time { return time.Date(2026, 12, 5, 9, 0, 0, 0, time.UTC) }})
	return w, db, h
}

func card(id, extra string) string {
	md := editor.Template(id, "Kafka Connect")
	return strings.Replace(md, "- The one-line answer an interviewer wants first", "- The one-line answer"+extra, 1)
}

func TestSaveRemoveAndBatch(t *testing.T) {
	w, db, h := writer(t)
	ctx := context.Background()
	out, errs, err := w.Save(ctx, 0, Target(h.Deck(), "mine", "kafka/mine.md", ""), []byte(card("mine", "")), store.ActionSave)
	if err != nil || errs != nil || !out.Created || out.Card == nil || out.Card.ID != "mine" {
		t.Fatalf("save: %+v %v %v", out, errs, err)
	}
	if _, ok := h.Deck().Card("mine"); !ok {
		t.Fatal("the saved card is not in the reloaded deck")
	}
	// A reserved id is refused before anything is stored.
	_, errs, err = w.Save(ctx, 0, Target(h.Deck(), "readme", "kafka/readme.md", ""), []byte(card("readme", "")), store.ActionSave)
	if err != nil || len(errs) == 0 || !strings.Contains(errs.Error(), "README") {
		t.Errorf("readme: %v %v", errs, err)
	}
	// A batch of two cards linking to each other arrives whole; removing one alone is refused.
	res, problems, err := w.Batch(ctx, 0, []Put{
		{Path: "kafka/a.md", Markdown: card("a", " ([b](/cards/b))")},
		{Path: "kafka/b.md", Markdown: card("b", " ([a](/cards/a))")},
	}, nil)
	if err != nil || problems != nil || len(res.Created) != 2 {
		t.Fatalf("batch: %+v %v %v", res, problems, err)
	}
	if _, problems, err := w.Remove(ctx, 0, "a"); !errors.Is(err, ErrLinked) || len(problems) == 0 {
		t.Errorf("removing a linked card: %v %v", problems, err)
	}
	if _, _, err := w.Remove(ctx, 0, "mine"); err != nil {
		t.Fatal(err)
	}
	cards, _ := db.DeckCards(ctx)
	if len(cards) != 2 {
		t.Errorf("stored cards after the removal: %d, want 2", len(cards))
	}
	// A card comparing more variants than a card may is refused naming the limit.
	many := strings.Replace(card("many", ""), "timing:", "simulation:\n  preset: consumer-join\n  compare: [eager, eager, eager, eager, eager]\n  caption: c\ntiming:", 1)
	if _, errs, _ := w.Save(ctx, 0, Target(h.Deck(), "many", "kafka/many.md", ""), []byte(many), store.ActionSave); !strings.Contains(errs.Error(), "at most 4") {
		t.Errorf("five variants: %v", errs)
	}
}
