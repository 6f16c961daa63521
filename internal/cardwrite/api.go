package cardwrite

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/store"
)

// The cards API's rules and shapes: who may write, where a card sent alone goes, and how a
// card and its problems are described.

// Info is a card as the cards API describes it.
type Info struct {
	ID       string   `json:"id"`
	Path     string   `json:"path"`
	Topic    string   `json:"topic"`
	Question string   `json:"question"`
	Tags     []string `json:"tags,omitempty"`
	Bundled  bool     `json:"bundled"` // the card has a card file
	Stored   bool     `json:"stored"`  // the card has text saved in the app (an override, or a card written there)
	SHA256   string   `json:"sha256"`  // of the markdown, so a sync can skip unchanged cards
	Markdown string   `json:"markdown,omitempty"`
}

// InfoOf describes card c of l, with its markdown when withText.
func InfoOf(l *deckload.Loaded, c *deck.Card, withText bool) Info {
	current, bundled := Text(l, c.File)
	sum := sha256.Sum256(current)
	a := Info{ID: c.ID, Path: c.File, Topic: c.Topic, Question: c.Question, Tags: c.Tags,
		Bundled: bundled != nil, Stored: l.Stored[c.File], SHA256: hex.EncodeToString(sum[:])}
	if withText {
		a.Markdown = string(current)
	}
	return a
}

// Problem is a card's problem as the cards API reports it.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
	Text    string `json:"text"` // file:line: message, as `rehearse check` prints it
}

// Problems is each of list as the cards API reports it.
func Problems(list deck.ErrorList) []Problem {
	out := make([]Problem, len(list))
	for i, p := range list {
		out[i] = Problem{File: p.File, Line: p.Line, Message: p.Msg, Text: p.Error()}
	}
	return out
}

// APITarget places a card sent to the cards API as id: its own file (a path naming another is
// refused with the error: moving is not a save), else wantPath, else the folder of its topic.
// problems says the text names another id (renaming is not a save either).
func APITarget(d *deck.Deck, id, wantPath string, src []byte) (t editor.Target, problems deck.ErrorList, err error) {
	t = Target(d, id, wantPath, "")
	if c, ok := d.Card(id); ok && wantPath != "" && wantPath != c.File {
		return t, nil, fmt.Errorf("path: card %q lives at %s; moving a card is refused", id, c.File)
	}
	if wantPath == "" && t.ID == "" { // a new card without a path: the folder of its topic
		if c, errs := deck.Parse(t.Path, src); len(errs) == 0 {
			t = Target(d, id, "", c.Topic)
		}
	}
	if got := editor.IDOf(src); got != id && len(src) <= editor.MaxCardBytes {
		return t, deck.ErrorList{{File: t.Path, Line: editor.FrontMatterLine(src, "id"),
			Msg: fmt.Sprintf("id: the URL names %q but the card's id is %q; renaming is refused", id, got)}}, nil
	}
	return t, nil, nil
}

// Settings reads the app's settings (store.DB).
type Settings interface {
	Setting(ctx context.Context, key string) (string, error)
}

// CanEdit reports whether u may write cards: admins, and members when an admin allows it.
func CanEdit(ctx context.Context, db Settings, u *store.User) (bool, error) {
	if u == nil {
		return false, nil
	}
	if u.IsAdmin() {
		return true, nil
	}
	v, err := db.Setting(ctx, store.SettingMembersEdit)
	return v == "1", err
}
