package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/editor"
	"github.com/rehearse/rehearse/internal/store"
)

// cardsAPIRoutes registers /api/cards. It sits outside the session group: a bearer token is
// the credential there, and private mode must not send a script to the login page.
func (s *Server) cardsAPIRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.apiAuth)
		r.Get("/api/cards", s.apiListCards)
		r.Post("/api/cards", s.apiBatch) // cards_batch.go
		r.Get("/api/cards/{id}", s.apiGetCard)
		r.Put("/api/cards/{id}", s.apiPutCard)
		r.Delete("/api/cards/{id}", s.apiDeleteCard)
	})
}

// bearerToken returns the token of an "Authorization: Bearer" header, if any.
func bearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return "", false
	}
	return strings.TrimSpace(h[7:]), true
}

// isBearerAPI reports a token-authenticated API request: exempt from the browser cross-origin
// check, since a browser never attaches such a header to a cross-site request on its own and
// apiAuth then ignores cookies.
func isBearerAPI(r *http.Request) bool {
	_, ok := bearerToken(r)
	return ok && strings.HasPrefix(r.URL.Path, "/api/cards")
}

type apiError struct {
	Error  string              `json:"error"`
	Errors []cardwrite.Problem `json:"errors,omitempty"`
}

func apiFail(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, apiError{Error: fmt.Sprintf(format, args...)})
}

// apiAuth makes the request's user the token's (401 for an unknown or revoked token), or the
// session's when no token is sent.
func (s *Server) apiAuth(next http.Handler) http.Handler {
	withSession := s.loadSession(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if userFrom(r.Context()) == nil {
			apiFail(w, http.StatusUnauthorized, "send Authorization: Bearer TOKEN (create one on /account)")
			return
		}
		next.ServeHTTP(w, r)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, ok := bearerToken(r)
		if !ok {
			withSession.ServeHTTP(w, r)
			return
		}
		if tok == "" || len(tok) > 100 {
			apiFail(w, http.StatusUnauthorized, "the bearer token is malformed")
			return
		}
		u, err := s.db.UserByToken(r.Context(), auth.Digest(tok), s.now())
		switch {
		case errors.Is(err, store.ErrRevoked):
			apiFail(w, http.StatusUnauthorized, "this token was revoked")
		case errors.Is(err, store.ErrNotFound):
			apiFail(w, http.StatusUnauthorized, "unknown token")
		case err != nil:
			s.fail(w, r, err)
		default:
			w.Header().Set("Cache-Control", "private, no-store")
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey, u)))
		}
	})
}

// apiCardOf describes a card of the running deck (cardwrite.InfoOf).
func (s *Server) apiCardOf(c *deck.Card, withText bool) cardwrite.Info {
	return cardwrite.InfoOf(s.loaded(), c, withText)
}

// apiListCards is GET /api/cards: every card of the running deck, without the text.
func (s *Server) apiListCards(w http.ResponseWriter, r *http.Request) {
	l := s.loaded()
	if l == nil {
		apiFail(w, http.StatusConflict, "%v", cardwrite.ErrNotEditable)
		return
	}
	out := struct {
		Cards []cardwrite.Info `json:"cards"`
	}{Cards: []cardwrite.Info{}}
	for _, c := range l.Deck.Cards {
		out.Cards = append(out.Cards, s.apiCardOf(c, false))
	}
	writeJSON(w, http.StatusOK, out)
}

// apiGetCard is GET /api/cards/{id}: the card's markdown and metadata.
func (s *Server) apiGetCard(w http.ResponseWriter, r *http.Request) {
	l := s.loaded()
	if l == nil {
		apiFail(w, http.StatusConflict, "%v", cardwrite.ErrNotEditable)
		return
	}
	c, ok := l.Deck.Card(chi.URLParam(r, "id"))
	if !ok {
		apiFail(w, http.StatusNotFound, "no card %q", chi.URLParam(r, "id"))
		return
	}
	writeJSON(w, http.StatusOK, s.apiCardOf(c, true))
}

// apiWriter checks the user may change cards (403 otherwise).
func (s *Server) apiWriter(w http.ResponseWriter, r *http.Request) bool {
	ok, err := s.canEdit(r.Context(), userFrom(r.Context()))
	if err != nil {
		s.fail(w, r, err)
		return false
	}
	if !ok {
		apiFail(w, http.StatusForbidden, "%s may not change cards: admins can, and members when an admin allows it on /admin", userFrom(r.Context()).Username)
	}
	return ok
}

// apiEditable is apiWriter for a change that needs the editable deck: nil (the answer
// written) when the user may not write or the server runs a deck that cannot be edited.
func (s *Server) apiEditable(w http.ResponseWriter, r *http.Request) *deckload.Loaded {
	if !s.apiWriter(w, r) {
		return nil
	}
	l := s.loaded()
	if l == nil {
		apiFail(w, http.StatusConflict, "%v", cardwrite.ErrNotEditable)
	}
	return l
}

// apiPutCard is PUT /api/cards/{id}: the body is the card's markdown. ?path=FOLDER/ID.md
// places a new card (default: the folder of its topic). 201 for a new card, 200 otherwise,
// 422 with every problem at its line.
func (s *Server) apiPutCard(w http.ResponseWriter, r *http.Request) {
	l := s.apiEditable(w, r)
	if l == nil {
		return
	}
	id := chi.URLParam(r, "id")
	if !editor.IsSlug(id) {
		apiFail(w, http.StatusUnprocessableEntity, "id %q: want lower-case letters, digits and single hyphens", id)
		return
	}
	src, err := io.ReadAll(io.LimitReader(r.Body, editor.MaxCardBytes+1))
	if err != nil {
		apiFail(w, http.StatusBadRequest, "reading the body: %v", err)
		return
	}
	src = []byte(strings.ReplaceAll(string(src), "\r\n", "\n"))
	t, problems, err := cardwrite.APITarget(l.Deck, id, r.URL.Query().Get("path"), src)
	switch {
	case err != nil:
		apiFail(w, http.StatusUnprocessableEntity, "%v", err)
		return
	case len(problems) > 0:
		writeProblems(w, problems)
		return
	}
	out, errs, err := s.cards.Save(r.Context(), idOf(userFrom(r.Context())), t, src, store.ActionSave)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if len(errs) > 0 {
		writeProblems(w, errs)
		return
	}
	status := http.StatusOK
	if out.Created {
		status = http.StatusCreated
	}
	s.log.InfoContext(r.Context(), "card saved via API", "card", id, "created", out.Created, "unchanged", out.Unchanged, "by", userFrom(r.Context()).Username)
	writeJSON(w, status, s.apiCardOf(out.Card, false))
}

func writeProblems(w http.ResponseWriter, errs deck.ErrorList) {
	writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: fmt.Sprintf("the card has %d problem(s); nothing was saved", len(errs)), Errors: cardwrite.Problems(errs)})
}

// apiDeleteCard is DELETE /api/cards/{id}: a card written in the app is deleted, an edited
// bundled card goes back to its file's text; a card only in the files cannot be deleted here.
func (s *Server) apiDeleteCard(w http.ResponseWriter, r *http.Request) {
	if !s.apiWriter(w, r) {
		return
	}
	id := chi.URLParam(r, "id")
	if _, ok := s.deck().Card(id); !ok {
		apiFail(w, http.StatusNotFound, "no card %q", id)
		return
	}
	reverted, problems, err := s.cards.Remove(r.Context(), idOf(userFrom(r.Context())), id)
	switch {
	case errors.Is(err, cardwrite.ErrLinked):
		writeJSON(w, http.StatusConflict, apiError{Error: fmt.Sprintf("card %q was not removed: the deck would then have %d problem(s)", id, len(problems)), Errors: cardwrite.Problems(problems)})
	case errors.Is(err, cardwrite.ErrNotEditable):
		apiFail(w, http.StatusConflict, "%v", err)
	case errors.Is(err, store.ErrNotFound):
		apiFail(w, http.StatusConflict, "card %q comes from the card files and has no text saved in the app; change the files to remove it", id)
	case err != nil:
		s.fail(w, r, err)
	default:
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "reverted": reverted, "deleted": !reverted})
	}
}
