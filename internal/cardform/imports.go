package cardform

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/rehearse/rehearse/internal/anki"
	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/importer"
	"github.com/rehearse/rehearse/internal/views"
)

// ImportDir is where a previewed card goes when its topic has no folder.
const ImportDir = "imported"

// Upload is one uploaded file.
type Upload struct {
	Name string
	Data []byte
}

// ImportPreview converts each uploaded plain-text file into a card and says what saving it into
// d would do; refusals is why the save would refuse a card (cardwrite.Writer.Refusals, or
// cardwrite.Conflicts for a deck that cannot be edited). The error is a file refused outright
// (an .apkg, a PDF), in one line.
func ImportPreview(files []Upload, topics importer.Topics, d *deck.Deck, refusals func(*deck.Card, []byte) []string) (views.ImportPreview, error) {
	vm := views.ImportPreview{Target: "FOLDER"}
	firstFile := map[string]string{} // id -> file that produced it first
	for _, f := range files {
		if err := importer.CheckText(f.Name, f.Data); err != nil {
			return vm, err
		}
		md, id, problems := importer.Import(f.Name, f.Data, topics)
		it := views.ImportItem{Name: f.Name, ID: id, Markdown: string(md)}
		for _, p := range problems {
			it.Problems = append(it.Problems, p.Error())
		}
		card, errs := deck.Parse(ImportDir+"/"+id+".md", md)
		if len(errs) > 0 {
			it.Errors = cardwrite.ErrorStrings(errs)
			vm.Items = append(vm.Items, it)
			continue
		}
		it.Card = card
		warnings := deck.SpokenProblems(card)
		if d != nil { // name the file the card would be saved as
			for i := range warnings {
				warnings[i].File = cardwrite.Target(d, card.ID, "", card.Topic).Path
			}
		}
		it.Warnings = cardwrite.ErrorStrings(warnings)
		it.Notes = refusals(card, md)
		if d != nil {
			for _, m := range editor.Similar(d, card.Question, "") {
				it.Similar = append(it.Similar, fmt.Sprintf("Its question is %d%% like that of %q (%s): is it the same card?", int(m.Score*100+0.5), m.Card.Question, m.Card.ID))
			}
		}
		if prev, dup := firstFile[card.ID]; dup {
			it.Notes = append(it.Notes, fmt.Sprintf("%s also became card %q; only the first is saved. Download this one and give it another id.", prev, card.ID))
		} else {
			firstFile[card.ID] = f.Name
		}
		vm.Items = append(vm.Items, it)
	}
	return vm, nil
}

// ImportSaved is the page after a plain-text import's save.
func ImportSaved(res []cardwrite.ImportedCard, saved int, reloadErr error) views.ImportSaved {
	var vm views.ImportSaved
	for _, r := range res {
		v := views.ImportResult{Name: r.Name, Markdown: string(r.Src), Msgs: r.Refused, Path: r.Path, Saved: r.Path != ""}
		if r.Card != nil {
			v.ID, v.Card, v.Warnings = r.Card.ID, r.Card, cardwrite.ErrorStrings(deck.SpokenProblems(r.Card))
		}
		vm.Results = append(vm.Results, v)
	}
	if saved > 0 {
		vm.Reload, vm.ReloadErrors, vm.ReloadOther = Reload(reloadErr)
	}
	return vm
}

// Reload words the deck reload after an import: "ok", "static" (the deck cannot reload) or
// "failed", with the deck's problems or the other error.
func Reload(err error) (outcome string, problems []views.DeckError, other string) {
	var list deck.ErrorList
	switch {
	case err == nil:
		return "ok", nil, ""
	case errors.Is(err, deckload.ErrNotReloadable):
		return "static", nil, ""
	case errors.As(err, &list):
		for _, e := range list {
			problems = append(problems, views.DeckError{File: e.File, Line: e.Line, Msg: e.Msg})
		}
		return "failed", problems, ""
	}
	return "failed", nil, err.Error()
}

// AnkiPreviewed is how many cards an Anki preview shows; all are saved.
const AnkiPreviewed = 40

// AnkiPreview is the page that shows what a staged Anki import would save; due words a due
// date for the importing user.
func AnkiPreview(st *anki.Stage, p *anki.Package, due func(time.Time) string) views.AnkiPreview {
	v := views.AnkiPreview{Name: st.Name, Format: p.Format, Notes: len(p.Notes), Images: len(st.Media), Cards: len(st.Cards),
		Existing: st.Existing, Refused: st.Refused}
	topics := map[string]int{}
	for _, c := range st.Cards {
		item := views.AnkiItem{Suspended: c.Suspended}
		if len(c.History) > 0 {
			item.Answers, item.State, item.Due = len(c.History), c.State.State.String(), due(c.State.Due)
			v.WithHistory++
		}
		topics[c.Topic]++
		if len(v.Items) < AnkiPreviewed { // parsed again: the stage keeps text only
			if item.Card, _ = deck.Parse(c.Path, c.Markdown); item.Card != nil {
				v.Items = append(v.Items, item)
			}
		}
		if c.Suspended {
			v.Suspended++
		}
	}
	for t, n := range topics {
		v.Topics = append(v.Topics, fmt.Sprintf("%s (%d)", t, n))
	}
	sort.Strings(v.Topics)
	return v
}

// AnkiSaved is the page after an Anki import's save.
func AnkiSaved(name string, out cardwrite.AnkiOutcome, reloadErr error) views.AnkiSaved {
	v := views.AnkiSaved{Name: name, Cards: out.Cards, WithHistory: out.WithHistory, Images: out.Images, Skipped: out.Skipped}
	v.Reload, v.ReloadErrors, v.ReloadOther = Reload(reloadErr)
	return v
}
