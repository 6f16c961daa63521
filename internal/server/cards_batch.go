package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/store"
)

// batchRequest is POST /api/cards: cards to write and ids to remove, applied together.
type batchRequest struct {
	Put []struct {
		Path     string `json:"path"`
		Markdown string `json:"markdown"`
	} `json:"put"`
	Delete []string `json:"delete"`
}

// batchResult lists the paths each change touched.
type batchResult struct {
	Created   []string `json:"created"`
	Updated   []string `json:"updated"`
	Unchanged []string `json:"unchanged"`
	Deleted   []string `json:"deleted"`
	Reverted  []string `json:"reverted"`
}

// apiBatch is POST /api/cards: every card is checked alone and then the deck with all the
// changes at once, so cards that link to each other can arrive together; nothing is stored
// unless everything passes (422 with every problem otherwise). `rehearse deck push` uses it.
func (s *Server) apiBatch(w http.ResponseWriter, r *http.Request) {
	l := s.apiEditable(w, r)
	if l == nil || !jsonBody(w, r) {
		return
	}
	var req batchRequest
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		if isTooBig(err) {
			apiFail(w, http.StatusRequestEntityTooLarge, "the batch is over %d KiB: send the cards in smaller batches", maxBody>>10)
			return
		}
		apiFail(w, http.StatusBadRequest, `the body must be JSON {"put": [{"path", "markdown"}], "delete": [ids]}: %v`, err)
		return
	}
	s.edits.Lock()
	defer s.edits.Unlock()
	l = s.loaded() // the deck as of holding the lock
	d := l.Deck
	var problems deck.ErrorList
	changes := map[string][]byte{}
	var res batchResult
	var saves []store.DeckCard
	var removals []store.Removal
	seen := map[string]string{} // id -> path in this batch
	for i, p := range req.Put {
		src := []byte(strings.ReplaceAll(p.Markdown, "\r\n", "\n"))
		id := editor.IDOf(src)
		if prev, dup := seen[id]; dup && id != "" {
			problems = append(problems, deck.Error{File: p.Path, Line: editor.FrontMatterLine(src, "id"), Msg: fmt.Sprintf("duplicate id %q: also used by %s in this batch", id, prev)})
			continue
		}
		seen[id] = p.Path
		t := targetFor(d, id, p.Path, "")
		if c, ok := d.Card(id); ok && c.File != p.Path {
			problems = append(problems, deck.Error{File: p.Path, Line: editor.FrontMatterLine(src, "id"), Msg: fmt.Sprintf("id %q: the card lives at %s; moving a card is refused", id, c.File)})
			continue
		}
		if p.Path == "" {
			problems = append(problems, deck.Error{File: fmt.Sprintf("put[%d]", i), Msg: "path: give the card's path, e.g. 03-eager/" + id + ".md"})
			continue
		}
		c, errs := editor.Check(d, t, src, s.checkSim(r.Context()))
		if len(errs) == 0 {
			_, errs = s.cardExpectations(r.Context(), c.Sim)
			for i := range errs {
				errs[i].File = t.Path
			}
		}
		if len(errs) > 0 {
			problems = append(problems, errs...)
			continue
		}
		current, bundled := cardText(l, t.Path)
		_, existed := d.Card(c.ID)
		switch {
		case existed && string(current) == string(src):
			res.Unchanged = append(res.Unchanged, t.Path)
			continue
		case bundled != nil && string(bundled) == string(src):
			removals = append(removals, store.Removal{ID: c.ID, Action: store.ActionRevert})
			res.Reverted = append(res.Reverted, t.Path)
		case existed:
			saves = append(saves, store.DeckCard{ID: c.ID, Path: t.Path, Markdown: string(src)})
			res.Updated = append(res.Updated, t.Path)
		default:
			saves = append(saves, store.DeckCard{ID: c.ID, Path: t.Path, Markdown: string(src)})
			res.Created = append(res.Created, t.Path)
		}
		changes[t.Path] = src
	}
	for _, id := range req.Delete {
		c, ok := d.Card(id)
		if !ok || !l.Stored[c.File] {
			problems = append(problems, deck.Error{File: "delete", Msg: fmt.Sprintf("card %q has no text stored in the app to remove", id)})
			continue
		}
		_, bundled := cardText(l, c.File)
		changes[c.File] = bundled
		if bundled != nil {
			removals = append(removals, store.Removal{ID: id, Action: store.ActionRevert})
			res.Reverted = append(res.Reverted, c.File)
		} else {
			removals = append(removals, store.Removal{ID: id, Action: store.ActionDelete})
			res.Deleted = append(res.Deleted, c.File)
		}
	}
	if len(problems) == 0 && len(changes) > 0 {
		problems = s.checkDeckWith(l, changes)
	}
	if len(problems) > 0 {
		problems.Sort()
		writeProblems(w, problems)
		return
	}
	if len(saves)+len(removals) > 0 {
		u := userFrom(r.Context())
		if err := s.db.ApplyDeckChanges(r.Context(), saves, removals, store.ActionSave, u.ID, s.now()); err != nil {
			s.fail(w, r, err)
			return
		}
		if err := s.reloadDecks(); err != nil {
			s.fail(w, r, err)
			return
		}
		s.log.InfoContext(r.Context(), "cards changed via API batch", "created", len(res.Created), "updated", len(res.Updated),
			"deleted", len(res.Deleted), "reverted", len(res.Reverted), "by", u.Username)
	}
	writeJSON(w, http.StatusOK, res)
}
