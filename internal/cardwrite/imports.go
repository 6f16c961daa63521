package cardwrite

import (
	"context"
	"fmt"

	"github.com/rehearse/rehearse/internal/anki"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/store"
)

// Imports store cards that arrive in numbers (a plain-text import, an Anki package): each card
// new to the deck passes the checks a save makes, all are stored, then the deck is reloaded once.

// Conflicts says why a card could not be imported into d: its id is in the deck already.
func Conflicts(d *deck.Deck, id string) []string {
	if d != nil {
		if c, ok := d.Card(id); ok {
			return []string{fmt.Sprintf("The deck already has a card with id %q (%s); saving refuses it.", id, c.File)}
		}
	}
	return nil
}

// Refusals runs the checks Import runs on one card and says why it would refuse it (nil: it
// would save it), so an import's preview shows exactly what its save will refuse.
func (w *Writer) Refusals(ctx context.Context, l *deckload.Loaded, card *deck.Card, src []byte) []string {
	if !editor.IsSlug(card.ID) {
		return []string{fmt.Sprintf("id %q is not a slug.", card.ID)}
	}
	if msgs := Conflicts(l.Deck, card.ID); len(msgs) > 0 {
		return msgs
	}
	if _, errs := w.Check(ctx, l, Target(l.Deck, card.ID, "", card.Topic), src); len(errs) > 0 {
		return ErrorStrings(errs)
	}
	return nil
}

// ErrorStrings is each problem as `rehearse check` prints it.
func ErrorStrings(list deck.ErrorList) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Error()
	}
	return out
}

// Sent is one card sent to an import's save.
type Sent struct {
	Name string
	Src  []byte
}

// ImportedCard is what an import did with one card sent.
type ImportedCard struct {
	Sent
	Card    *deck.Card // the card as sent, nil when it does not parse
	Refused []string   // why it was not saved (parse problems, a duplicate, a check)
	Path    string     // the file it was saved as; "" when refused
}

// Import stores each card sent (in the folder of its topic, else imported/) as userID's, then
// reloads the deck; reloadErr is that reload's outcome (deckload.ErrNotReloadable, or a
// deck.ErrorList), nil when nothing was saved. Every card is parsed again here: a form could
// carry anything.
func (w *Writer) Import(ctx context.Context, userID int64, sent []Sent) (out []ImportedCard, saved int, reloadErr, err error) {
	l, release := w.Hold()
	defer release()
	if l == nil {
		return nil, 0, nil, ErrNotEditable
	}
	seen := map[string]bool{}
	for _, s := range sent {
		res := ImportedCard{Sent: s}
		card, errs := deck.Parse(s.Name, s.Src)
		switch {
		case len(errs) > 0:
			res.Refused = ErrorStrings(errs)
		case seen[card.ID]:
			res.Card, res.Refused = card, []string{fmt.Sprintf("card %q appears twice in this batch; the first was kept.", card.ID)}
		default:
			res.Card = card
			seen[card.ID] = true
			if res.Refused = w.Refusals(ctx, l, card, s.Src); len(res.Refused) > 0 {
				break
			}
			t := Target(l.Deck, card.ID, "", card.Topic)
			if _, err := w.d.Store.SaveDeckCard(ctx, store.DeckCard{ID: card.ID, Path: t.Path, Markdown: string(s.Src)}, store.ActionImport, userID, w.d.Now()); err != nil {
				return nil, 0, nil, err
			}
			res.Path = t.Path
			saved++
		}
		out = append(out, res)
	}
	if saved > 0 {
		reloadErr = w.d.Reload()
	}
	return out, saved, reloadErr, nil
}

// AnkiOutcome is what an Anki import stored.
type AnkiOutcome struct {
	Cards, WithHistory, Images int
	Skipped                    []string // cards saved into the deck since the preview, left out
}

// ImportAnki stores a previewed Anki import as userID's (its cards, the history replayed for
// them, its images, and which are suspended) in one transaction, then reloads the deck.
func (w *Writer) ImportAnki(ctx context.Context, userID int64, st *anki.Stage) (out AnkiOutcome, reloadErr, err error) {
	l, release := w.Hold()
	defer release()
	if l == nil {
		return out, nil, ErrNotEditable
	}
	im := store.AnkiImport{UserID: userID}
	for _, c := range st.Cards {
		if _, ok := l.Deck.Card(c.ID); ok { // saved since the preview
			out.Skipped = append(out.Skipped, c.ID)
			continue
		}
		im.Cards = append(im.Cards, store.DeckCard{ID: c.ID, Path: c.Path, Markdown: string(c.Markdown)})
		if len(c.History) > 0 {
			h := store.CardHistory{CardID: c.ID}
			for _, a := range c.History {
				h.Answers = append(h.Answers, store.HistoryAnswer{Rating: a.Rating, At: a.At, DurationMS: a.TookMS, Before: a.Before, After: a.After})
			}
			im.History = append(im.History, h)
		}
		if c.Suspended {
			im.Suspend = append(im.Suspend, c.ID)
		}
	}
	for _, m := range st.Media {
		im.Media = append(im.Media, store.Media{Hash: m.Hash, Type: m.Type, Data: m.Data})
	}
	n, err := w.d.Store.ImportAnki(ctx, im, w.d.Now())
	if err != nil {
		return out, nil, err
	}
	out.Cards, out.WithHistory, out.Images = len(im.Cards), n, len(im.Media)
	return out, w.d.Reload(), nil
}
