package server

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/interview"
	"github.com/rehearse/rehearse/internal/mockrun"
	"github.com/rehearse/rehearse/internal/mockview"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Mock-interview feature: setup, one step at a time under a server-side clock, summary and
// history. The session's rules run in internal/mockrun and its pages are built by
// internal/mockview; these handlers decode, make the call and respond.

func (s *Server) mockRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Get("/mock", s.mockSetup)
		r.Get("/mock/new", s.mockSetup)
		r.Post("/mock", s.mockCreate)
		r.Get("/mock/history", s.mockHistory)
		r.Get("/mock/{id}", s.mockStep)
		r.Post("/mock/{id}/answer", s.mockAnswer)
		r.Post("/mock/{id}/check", s.mockCheck)
		r.Post("/mock/{id}/followup", s.mockFollowUp)
		r.Post("/mock/{id}/rate", s.mockRate)
		r.Get("/mock/{id}/end", s.mockEnd)
		r.Post("/mock/{id}/abandon", s.mockAbandon)
		r.Get("/mock/{id}/summary", s.mockSummary)
	})
}

// mockPage is the layout model with the mock script and stylesheet.
func (s *Server) mockPage(r *http.Request, title string) views.Page {
	p := s.page(r, title, "voice.js", "mock.js")
	p.CSS = append(p.CSS, s.assets.URL("mock.css"), s.assets.URL("voice.css"))
	return p
}

func (s *Server) mockSetup(w http.ResponseWriter, r *http.Request) {
	f := mockview.ReadForm(r.URL.Query(), false)
	if r.URL.Query().Get("depth") == "" {
		f.Depth = userFrom(r.Context()).Settings.DefaultDepth
	}
	s.renderMockSetup(w, r, http.StatusOK, f, nil)
}

func (s *Server) renderMockSetup(w http.ResponseWriter, r *http.Request, status int, f mockview.Form, fe *views.FormError) {
	recent, err := s.db.MockHistory(r.Context(), userFrom(r.Context()).ID, 1, s.now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var active int64
	if len(recent) == 1 && recent[0].Status == store.MockActive {
		active = recent[0].ID
	}
	s.render(w, r, status, views.MockSetupPage(s.mockPage(r, "Mock interview"), mockview.Setup(s.deck(), f, active, fe)))
}

func (s *Server) mockCreate(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, errStatus(http.StatusBadRequest, "The form could not be read."))
		return
	}
	u, d, f := userFrom(r.Context()), s.deck(), mockview.ReadForm(r.PostForm, true)
	st, fe := mockview.Settings(d, f)
	if fe != nil {
		s.renderMockSetup(w, r, http.StatusUnprocessableEntity, f, fe)
		return
	}
	sess, err := mockrun.Start(r.Context(), s.db, d, u.ID, scheduler(u), st, s.now())
	if errors.Is(err, interview.ErrNoCards) {
		s.renderMockSetup(w, r, http.StatusUnprocessableEntity, f, &views.FormError{Form: "No card matches these topics and tags; tick fewer."})
		return
	} else if err != nil {
		s.fail(w, r, err)
		return
	}
	s.metrics.MockStarted()
	http.Redirect(w, r, mockURL(sess.ID, ""), http.StatusSeeOther)
}

func mockURL(id int64, suffix string) string {
	return "/mock/" + strconv.FormatInt(id, 10) + suffix
}
