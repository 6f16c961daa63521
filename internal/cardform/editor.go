// Package cardform builds the view models of the pages that write cards: the editor and its
// live pane, the plain-text and Anki import previews and what their saves did. It is pure: the
// checks, the simulator and the saves it reports on are done elsewhere (cardwrite, simform)
// and passed in or handed over as results.
package cardform

import (
	"bytes"
	"path"
	"strings"

	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/views"
)

// NewCard is the editor on a complete template, in the named folder (else the deck's first).
func NewCard(d *deck.Deck, folder string) views.Editor {
	v := views.Editor{New: true, Folders: folders(d)}
	topic := "New topic"
	if len(v.Folders) > 0 {
		v.Folder, topic = v.Folders[0].Name, v.Folders[0].Topic
	}
	for _, f := range v.Folders {
		if f.Name == folder && folder != "" {
			v.Folder, topic = f.Name, f.Topic
		}
	}
	v.Markdown = editor.Template("my-new-card", topic)
	v.Live.Lines = strings.Count(v.Markdown, "\n") + 1
	return v
}

// Editor is the editor on src as the card at t (a new card when t has no id).
func Editor(l *deckload.Loaded, t editor.Target, src []byte) views.Editor {
	v := views.Editor{New: t.ID == "", ID: t.ID, Path: t.Path, Folder: path.Dir(t.Path), Markdown: string(src)}
	if c, ok := l.Deck.Card(t.ID); ok {
		_, bundled := cardwrite.Text(l, c.File)
		v.Bundled, v.Stored = bundled != nil, l.Stored[c.File]
	}
	if v.New {
		v.Folders = folders(l.Deck)
	}
	return v
}

func folders(d *deck.Deck) []views.FolderOption {
	names, topics := editor.Folders(d)
	out := make([]views.FolderOption, len(names))
	for i := range names {
		out[i] = views.FolderOption{Name: names[i], Topic: topics[i]}
	}
	return out
}

// Checks are what the live pane asks of the rest of the app, for one request.
type Checks struct {
	Check  func(t editor.Target, src []byte) (*deck.Card, deck.ErrorList) // cardwrite.Writer.Check
	Expect func(*deck.Simulation) []views.ExpectResult                    // simform.Expectations
	Figure func(*deck.Card) (views.Slot, error)                           // the card's figure
}

// Live checks src as the card at t in deck d and builds what the live pane shows.
func Live(d *deck.Deck, t editor.Target, src []byte, checked bool, ck Checks) views.EditorLive {
	live := views.EditorLive{Lines: bytes.Count(src, []byte("\n")) + 1, Checked: checked}
	c, errs := ck.Check(t, src)
	for _, e := range errs {
		live.Errors = append(live.Errors, views.EditorError{Line: e.Line, Msg: e.Msg})
	}
	if c == nil {
		if pc, perrs := deck.Parse(t.Path, src); len(perrs) == 0 { // parses, but its claims fail
			live.Expect = ck.Expect(pc.Sim)
		}
		return live
	}
	live.Expect = ck.Expect(c.Sim)
	live.Card = c
	for _, e := range deck.SpokenProblems(c) { // member-written cards may run long; the deck warns
		live.Warnings = append(live.Warnings, views.EditorError{Line: e.Line, Msg: e.Msg})
	}
	for _, m := range editor.Similar(d, c.Question, t.ID) {
		live.Similar = append(live.Similar, views.SimilarCard{ID: m.Card.ID, Question: m.Card.Question, Percent: int(m.Score*100 + 0.5)})
	}
	if sim, err := ck.Figure(c); err == nil {
		live.Simulation = sim
	} else {
		live.Errors = append(live.Errors, views.EditorError{Line: c.Sim.Line, Msg: "simulation: " + err.Error()})
		live.Card = nil
	}
	return live
}
