package deckload

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/rebalance"
)

// A chain of stored cards, each linking to the one before, whose first links to a card file
// that went away: start-up leaves the whole chain out, naming each, and serves the rest.
func TestLayeredSkipsAChainOfStoredCards(t *testing.T) {
	src, _ := os.ReadFile("../deck/testdata/valid/kafka/eager.md")
	base := fstest.MapFS{"kafka/eager.md": {Data: src}}
	stored := map[string][]byte{}
	prev := "gone-card" // a card file removed by an upgrade
	for i := 1; i <= 5; i++ {
		id := fmt.Sprintf("chain-%d", i)
		text := strings.Replace(string(src), "id: connect-eager-rebalancing", "id: "+id, 1)
		text = strings.Replace(text, "## Answer\n", "## Answer\n\n- See [the other card](/cards/"+prev+").\n", 1)
		stored["kafka/"+id+".md"] = []byte(text)
		prev = id
	}
	load := Layered(base, func() (map[string][]byte, error) { return stored, nil }, func(f fs.FS) (*deck.Deck, error) { return deck.Load(f, deck.Options{}) })
	l, err := load()
	if err != nil {
		t.Fatalf("start-up refused: %v", err)
	}
	if l.Deck.Len() != 1 || len(l.Skipped) != 5 {
		t.Fatalf("cards %d, skipped %v", l.Deck.Len(), l.Skipped)
	}
	if !strings.Contains(l.Skipped[0].Msg, `"gone-card"`) {
		t.Errorf("first skip should name the missing card: %v", l.Skipped[0])
	}
}

// Every bundled card's simulation fits a card's limits without being cut short.
func TestBundledSimulationsFitCardLimits(t *testing.T) {
	d, err := deck.Load(content.FS, deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range d.Cards {
		if c.Sim == nil {
			continue
		}
		scs, err := CardScenarios(c.Sim)
		if err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		for _, sc := range scs {
			res, err := rebalance.Run(context.Background(), sc, CardLimits)
			if err != nil || res.Truncated {
				t.Errorf("%s: %v (truncated %v)", c.ID, err, res != nil && res.Truncated)
			}
		}
	}
}

// The card's bound is checked before anything runs: too many variants, or a scenario larger
// than a card may ask for, is refused naming the limit.
func TestCheckSimRefusesWhatIsOverACardsBound(t *testing.T) {
	ran := 0
	check := CheckSim(func(rebalance.Scenario, rebalance.Limits) error { ran++; return nil })
	many := &deck.Simulation{Preset: "consumer-join", Compare: make([]string, 2000)}
	for i := range many.Compare {
		many.Compare[i] = "eager"
	}
	if err := check(many); err == nil || !strings.Contains(err.Error(), "at most 4") {
		t.Errorf("2,000 variants: %v", err)
	}
	big := &deck.Simulation{Preset: "consumer-join", Compare: []string{"eager"}, Overrides: map[string]any{"members": 1000, "events": []any{}, "duration_ms": 24 * 3600 * 1000}}
	if err := check(big); err == nil || !strings.Contains(err.Error(), "over a card's limits") {
		t.Errorf("1,000 members for 24 hours: %v", err)
	}
	if ran != 0 {
		t.Errorf("ran %d scenarios of cards over the bound", ran)
	}
}

// A reload runs only the simulations it has not seen: saving one card does not run every
// other card's again.
func TestReloadRunsNoSimulationItHasSeen(t *testing.T) {
	fsys := edited(t)
	if _, err := Load(fsys, false); err != nil {
		t.Fatal(err)
	}
	before := ran()
	if _, err := Load(fsys, false); err != nil {
		t.Fatal(err)
	}
	if n := ran() - before; n != 0 {
		t.Errorf("the second load ran %d simulations again", n)
	}
}

// The bundled cards' simulations are not run at load (a test runs them when the deck is
// built); the same cards with a byte changed are.
func TestBundledCardsAreNotRunAgain(t *testing.T) {
	verdicts.mu.Lock()
	clear(verdicts.done)
	verdicts.mu.Unlock()
	before := ran()
	if _, err := Load(content.FS, false); err != nil {
		t.Fatal(err)
	}
	if n := ran() - before; n != 0 {
		t.Errorf("loading the bundled deck ran %d simulations", n)
	}
	if _, err := Load(edited(t), false); err != nil {
		t.Fatal(err)
	}
	if ran() == before {
		t.Error("the edited cards' simulations were not run")
	}
}

// edited is the bundled deck with a blank line added to every card: the same cards and
// simulations, but no file the bundled one.
func edited(t *testing.T) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(content.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(content.FS, p)
		if strings.HasSuffix(p, ".md") {
			b = append(b, '\n')
		}
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func ran() int {
	verdicts.mu.Lock()
	defer verdicts.mu.Unlock()
	return verdicts.ran
}
