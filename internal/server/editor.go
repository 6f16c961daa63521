package server

import (
	"bytes"
	"errors"
	"net/http"
	"path"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/cardform"
	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/simform"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// editorRoutes registers the card editor, its history and the cards API (cards_api.go).
func (s *Server) editorRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Get("/cards/{id}/history", s.historyPage)
		r.Group(func(r chi.Router) {
			r.Use(s.requireEditor)
			r.Get("/cards/new", s.newCardPage)
			r.Post("/cards/new", s.editorPost)
			r.Get("/cards/{id}/edit", s.editCardPage)
			r.Post("/cards/{id}/edit", s.editorPost)
			r.Post("/cards/{id}/restore", s.restoreRevision)
			r.Post("/cards/{id}/revert", s.revertCard)
			r.Post("/editor/preview", s.editorPreview)
		})
	})
	r.With(s.requireAdmin).Post("/admin/editing", s.setEditing)
}

// requireEditor refuses users who may not write cards with a 403.
func (s *Server) requireEditor(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, err := s.canEdit(r.Context(), userFrom(r.Context()))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if !ok {
			s.errorPage(w, r, http.StatusForbidden, "Only admins can write and edit cards here, unless an admin allows members to.")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) editorPage(r *http.Request) views.Page {
	p := s.page(r, "Edit card", "editor.js")
	p.CSS = append(p.CSS, s.assets.URL("editor.css"), s.assets.URL("sim.css"))
	return p
}

// newCardPage is GET /cards/new: the editor on a complete template.
func (s *Server) newCardPage(w http.ResponseWriter, r *http.Request) {
	l := s.loaded()
	if l == nil {
		s.errorPage(w, r, http.StatusConflict, cardwrite.ErrNotEditable.Error())
		return
	}
	v := cardform.NewCard(l.Deck, r.URL.Query().Get("folder"))
	p := s.editorPage(r)
	p.Title = "New card"
	s.render(w, r, http.StatusOK, views.EditorPage(p, v))
}

// editCardPage is GET /cards/{id}/edit.
func (s *Server) editCardPage(w http.ResponseWriter, r *http.Request) {
	l := s.loaded()
	if l == nil {
		s.errorPage(w, r, http.StatusConflict, cardwrite.ErrNotEditable.Error())
		return
	}
	c, ok := l.Deck.Card(chi.URLParam(r, "id"))
	if !ok {
		s.notFound(w, r)
		return
	}
	t := editor.Target{Path: c.File, ID: c.ID}
	current, _ := cardwrite.Text(l, c.File)
	v := cardform.Editor(l, t, current)
	v.Notice = editorNotices[r.URL.Query().Get("saved")]
	v.Live = s.editorLive(r, t, current, false)
	s.render(w, r, http.StatusOK, views.EditorPage(s.editorPage(r), v))
}

var editorNotices = map[string]string{
	"1":        "Saved. Study progress on this card is kept.",
	"restored": "The revision was restored.",
}

// editorTarget reads where the posted card goes: the card in the URL, or a new card in the
// chosen folder named after the id in its front matter.
func (s *Server) editorTarget(r *http.Request, d *deck.Deck, src []byte) (editor.Target, bool) {
	if id := chi.URLParam(r, "id"); id != "" {
		c, ok := d.Card(id)
		if !ok {
			return editor.Target{}, false
		}
		return editor.Target{Path: c.File, ID: c.ID}, true
	}
	id := editor.IDOf(src)
	if !editor.IsSlug(id) {
		id = "card" // Check then reports the id problem at its line
	}
	return editor.Target{Path: path.Join(r.PostFormValue("folder"), id+".md")}, true
}

// editorLive checks the text and renders what the live pane shows (cardform.Live).
func (s *Server) editorLive(r *http.Request, t editor.Target, src []byte, checked bool) views.EditorLive {
	ctx, l := r.Context(), s.loaded()
	return cardform.Live(l.Deck, t, src, checked, cardform.Checks{
		Check: func(t editor.Target, src []byte) (*deck.Card, deck.ErrorList) { return s.cards.Check(ctx, l, t, src) },
		Expect: func(sim *deck.Simulation) []views.ExpectResult {
			x, _ := simform.Expectations(ctx, s.sim.Run, sim)
			return x
		},
		Figure: func(c *deck.Card) (views.Slot, error) { return s.cardSimulation(r, c) },
	})
}

// editorText reads the posted markdown with Windows line ends made plain.
func editorText(r *http.Request) []byte {
	return bytes.ReplaceAll([]byte(r.PostFormValue("md")), []byte("\r\n"), []byte("\n"))
}

// editorPost is POST /cards/new and /cards/{id}/edit: Preview (the no-JS path) or Save. A
// refused save shows every problem and keeps the text as typed.
func (s *Server) editorPost(w http.ResponseWriter, r *http.Request) {
	l := s.loaded()
	if l == nil {
		s.errorPage(w, r, http.StatusConflict, cardwrite.ErrNotEditable.Error())
		return
	}
	src := editorText(r)
	t, ok := s.editorTarget(r, l.Deck, src)
	if !ok {
		s.notFound(w, r)
		return
	}
	v := cardform.Editor(l, t, src)
	status := http.StatusOK
	if r.PostFormValue("action") == "save" {
		out, errs, err := s.cards.Save(r.Context(), idOf(userFrom(r.Context())), t, src, store.ActionSave)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if len(errs) == 0 {
			s.log.InfoContext(r.Context(), "card saved", "card", out.Card.ID, "created", out.Created, "unchanged", out.Unchanged, "by", userFrom(r.Context()).Username)
			http.Redirect(w, r, "/cards/"+out.Card.ID+"?saved=1", http.StatusSeeOther)
			return
		}
		status = http.StatusUnprocessableEntity
		v.Notice = "Not saved: fix the problems listed beside the text."
	}
	v.Live = s.editorLive(r, t, src, true)
	if status == http.StatusOK && len(v.Live.Errors) > 0 {
		status = http.StatusUnprocessableEntity
	}
	s.render(w, r, status, views.EditorPage(s.editorPage(r), v))
}

// editorPreview is POST /editor/preview: the live pane alone, for the editor script.
func (s *Server) editorPreview(w http.ResponseWriter, r *http.Request) {
	l := s.loaded()
	if l == nil {
		s.errorPage(w, r, http.StatusConflict, cardwrite.ErrNotEditable.Error())
		return
	}
	src := editorText(r)
	t, ok := editor.Target{}, true
	if id := r.PostFormValue("id"); id != "" {
		c, found := l.Deck.Card(id)
		if !found {
			s.notFound(w, r)
			return
		}
		t = editor.Target{Path: c.File, ID: c.ID}
	} else {
		t, ok = s.editorTarget(r, l.Deck, src)
	}
	if !ok {
		s.notFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, http.StatusOK, views.EditorLivePane(s.editorLive(r, t, src, true)))
}

// revertCard is POST /cards/{id}/revert: drop the edited copy of a bundled card.
func (s *Server) revertCard(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	_, problems, err := s.cards.Remove(r.Context(), idOf(userFrom(r.Context())), id)
	switch {
	case errors.Is(err, cardwrite.ErrLinked):
		s.errorPage(w, r, http.StatusConflict, "Not reverted: the deck would have problems without this text: "+problems.Error())
	case errors.Is(err, store.ErrNotFound):
		s.errorPage(w, r, http.StatusConflict, "This card has no edited text to revert.")
	case errors.Is(err, cardwrite.ErrNotEditable):
		s.errorPage(w, r, http.StatusConflict, err.Error())
	case err != nil:
		s.fail(w, r, err)
	default:
		http.Redirect(w, r, "/cards/"+id+"?saved=1", http.StatusSeeOther)
	}
}

// setEditing is POST /admin/editing: whether members may write cards.
func (s *Server) setEditing(w http.ResponseWriter, r *http.Request) {
	v := "0"
	if r.PostFormValue("members") == "1" {
		v = "1"
	}
	if err := s.db.SetSetting(r.Context(), store.SettingMembersEdit, v); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "card editing permission changed", "members", v == "1", "by", userFrom(r.Context()).Username)
	http.Redirect(w, r, "/admin?saved=editing#editing", http.StatusSeeOther)
}
