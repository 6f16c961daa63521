// Package historyview builds a card's history page from its stored revisions: the list, and
// the diff of one revision against the one before it with text. It is pure: the server loads
// the revisions and renders what this returns.
package historyview

import (
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Page is the history of card id from its revisions (newest first), diffing revision to (0:
// the newest with text) against the revision before it with text. The first edit of a bundled
// card has none: it is diffed against bundled(path), the card's file as shipped ("" if none).
func Page(id string, canEdit bool, revs []store.Revision, to int64, bundled func(path string) string) views.History {
	v := views.History{ID: id, CanEdit: canEdit}
	for _, rv := range revs {
		v.Revisions = append(v.Revisions, views.RevisionView{ID: rv.ID, Action: rv.Action, By: rv.By, At: rv.CreatedAt, Empty: rv.Markdown == ""})
	}
	var newer, older *store.Revision
	for i := range revs {
		if revs[i].Markdown == "" {
			continue
		}
		switch {
		case newer == nil && (to == 0 || revs[i].ID == to):
			newer = &revs[i]
		case newer != nil && older == nil:
			older = &revs[i]
		}
	}
	if newer == nil {
		return v
	}
	var base string
	if older != nil {
		base, v.From = older.Markdown, older.ID
	} else {
		base = bundled(newer.Path)
	}
	v.To = newer.ID
	lines, coarse := editor.Diff(base, newer.Markdown)
	v.Coarse = coarse
	for _, l := range lines {
		v.Diff = append(v.Diff, views.DiffLine{Op: string(l.Op), Text: l.Text})
	}
	return v
}

// Restorable is revision id of revs when it has text to restore.
func Restorable(revs []store.Revision, id int64) (*store.Revision, bool) {
	for i := range revs {
		if revs[i].ID == id && revs[i].Markdown != "" {
			return &revs[i], true
		}
	}
	return nil, false
}
