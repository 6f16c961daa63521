package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// historyPage is GET /cards/{id}/history: every revision, and the diff of one (?to=ID, the
// newest by default) against the revision before it with text.
func (s *Server) historyPage(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	revs, err := s.db.Revisions(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if _, ok := s.deck().Card(id); !ok && len(revs) == 0 {
		s.notFound(w, r)
		return
	}
	canEdit, err := s.canEdit(r.Context(), userFrom(r.Context()))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := views.History{ID: id, CanEdit: canEdit}
	for _, rv := range revs {
		v.Revisions = append(v.Revisions, views.RevisionView{ID: rv.ID, Action: rv.Action, By: rv.By, At: rv.CreatedAt, Empty: rv.Markdown == ""})
	}
	to, _ := strconv.ParseInt(r.URL.Query().Get("to"), 10, 64)
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
	if newer != nil {
		base := ""
		if older != nil {
			base, v.From = older.Markdown, older.ID
		} else if l := s.loaded(); l != nil {
			if _, bundled := cardwrite.Text(l, newer.Path); bundled != nil {
				base = string(bundled) // the first edit of a bundled card: diff against its file
			}
		}
		v.To = newer.ID
		lines, coarse := editor.Diff(base, newer.Markdown)
		v.Coarse = coarse
		for _, l := range lines {
			v.Diff = append(v.Diff, views.DiffLine{Op: string(l.Op), Text: l.Text})
		}
	}
	p := s.page(r, "History")
	p.CSS = append(p.CSS, s.assets.URL("editor.css"))
	s.render(w, r, http.StatusOK, views.HistoryPage(p, v))
}

// restoreRevision is POST /cards/{id}/restore: save an earlier revision's text again, as a new
// revision, through the same checks as any save.
func (s *Server) restoreRevision(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	revID, _ := strconv.ParseInt(r.PostFormValue("rev"), 10, 64)
	revs, err := s.db.Revisions(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var rev *store.Revision
	for i := range revs {
		if revs[i].ID == revID && revs[i].Markdown != "" {
			rev = &revs[i]
		}
	}
	if rev == nil {
		s.errorPage(w, r, http.StatusNotFound, "This card has no such revision with text to restore.")
		return
	}
	t := editor.Target{Path: rev.Path, ID: id}
	if _, ok := s.deck().Card(id); !ok {
		t.ID = "" // a deleted card comes back as a new one at its old path
	}
	out, errs, err := s.cards.Save(r.Context(), idOf(userFrom(r.Context())), t, []byte(rev.Markdown), store.ActionRestore)
	switch {
	case errors.Is(err, cardwrite.ErrNotEditable):
		s.errorPage(w, r, http.StatusConflict, err.Error())
	case err != nil:
		s.fail(w, r, err)
	case len(errs) > 0:
		s.errorPage(w, r, http.StatusUnprocessableEntity, "This revision no longer passes the deck's checks, so it was not restored: "+errs.Error())
	default:
		http.Redirect(w, r, "/cards/"+out.Card.ID+"/edit?saved=restored", http.StatusSeeOther)
	}
}
