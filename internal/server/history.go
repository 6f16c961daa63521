package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/historyview"
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
	to, _ := strconv.ParseInt(r.URL.Query().Get("to"), 10, 64)
	v := historyview.Page(id, canEdit, revs, to, s.bundledText)
	p := s.page(r, "History")
	p.CSS = append(p.CSS, s.assets.URL("editor.css"))
	s.render(w, r, http.StatusOK, views.HistoryPage(p, v))
}

// bundledText is a card file as the binary ships it ("" for none).
func (s *Server) bundledText(path string) string {
	if l := s.loaded(); l != nil {
		if _, bundled := cardwrite.Text(l, path); bundled != nil {
			return string(bundled)
		}
	}
	return ""
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
	rev, ok := historyview.Restorable(revs, revID)
	if !ok {
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
