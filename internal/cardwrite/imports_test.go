package cardwrite

import (
	"context"
	"strings"
	"testing"
)

// An import saves each new card once, refuses a duplicate in the batch, a card the deck has and
// text that does not parse, each with its reason, and reloads the deck once.
func TestImport(t *testing.T) {
	w, _, h := writer(t)
	ctx := context.Background()
	eager, _ := h.Deck().Card(h.Deck().Cards[0].ID)
	current, _ := Text(h.Loaded(), eager.File)
	sent := []Sent{
		{Name: "a.txt", Src: []byte(card("imported-one", ""))},
		{Name: "b.txt", Src: []byte(card("imported-one", " again"))},
		{Name: "c.txt", Src: current},
		{Name: "d.txt", Src: []byte("no front matter")},
	}
	out, saved, reloadErr, err := w.Import(ctx, 0, sent)
	if err != nil || reloadErr != nil || saved != 1 || len(out) != 4 {
		t.Fatalf("import: saved %d, %d results, reload %v, err %v", saved, len(out), reloadErr, err)
	}
	if out[0].Path == "" || len(out[0].Refused) > 0 {
		t.Errorf("the new card was not saved: %+v", out[0])
	}
	for i, want := range []string{"twice", "already has", ""} {
		r := out[i+1]
		if r.Path != "" || len(r.Refused) == 0 || !strings.Contains(strings.Join(r.Refused, " "), want) {
			t.Errorf("%s: saved at %q, refused %q; want a refusal saying %q", r.Name, r.Path, r.Refused, want)
		}
	}
	if _, ok := h.Deck().Card("imported-one"); !ok {
		t.Fatal("the imported card is not in the reloaded deck")
	}
}
