package server

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// tokenRoutes registers the API token actions of /account (in its signed-in group).
func (s *Server) tokenRoutes(r chi.Router) {
	r.Post("/account/tokens", s.createToken)
	r.Post("/account/tokens/{id}/revoke", s.revokeToken)
}

// tokensSection is the account page's token list; fresh is a token just created (shown once).
func (s *Server) tokensSection(r *http.Request, fresh, freshName, errMsg string) (views.Slot, error) {
	u := userFrom(r.Context())
	list, err := s.db.Tokens(r.Context(), u.ID)
	if err != nil {
		return nil, err
	}
	canWrite, err := s.canEdit(r.Context(), u)
	if err != nil {
		return nil, err
	}
	v := views.Tokens{New: fresh, NewName: freshName, Err: errMsg, CanWrite: canWrite}
	for _, t := range list {
		v.List = append(v.List, views.Token{ID: t.ID, Name: t.Name, Created: t.CreatedAt, LastUsed: t.LastUsed, Revoked: !t.RevokedAt.IsZero()})
	}
	return views.TokensSection(v), nil
}

// createToken is POST /account/tokens: the new token is shown on the page once, never again.
// It asks for the password: a token outlives the session, so a stolen session alone must not
// be able to make one.
func (s *Server) createToken(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PostFormValue("name"))
	if name == "" || len(name) > 64 {
		s.renderAccountTokens(w, r, http.StatusUnprocessableEntity, "", "", "Name the token (up to 64 characters), e.g. after the script that uses it.")
		return
	}
	status, msg, err := s.checkOwnPassword(w, r, r.PostFormValue("password"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if status != 0 {
		s.renderAccountTokens(w, r, status, "", "", msg)
		return
	}
	tok, digest := auth.NewToken()
	if _, err := s.db.CreateToken(r.Context(), userFrom(r.Context()).ID, name, digest, s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "API token created", "name", name, "user", userFrom(r.Context()).Username)
	w.Header().Set("Cache-Control", "no-store")
	s.renderAccountTokens(w, r, http.StatusOK, tok, name, "")
}

// revokeToken is POST /account/tokens/{id}/revoke.
func (s *Server) revokeToken(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	err := s.db.RevokeToken(r.Context(), userFrom(r.Context()).ID, id, s.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.errorPage(w, r, http.StatusNotFound, "You have no such token, or it is already revoked.")
	case err != nil:
		s.fail(w, r, err)
	default:
		http.Redirect(w, r, "/account?saved=token#tokens", http.StatusSeeOther)
	}
}

// checkOwnPassword checks the signed-in user's password for an action that needs it, counted
// by the login limiter like a login (account.Passwords.Confirm). status is 0 when it matches,
// else 429 or 422 with the message to show.
func (s *Server) checkOwnPassword(w http.ResponseWriter, r *http.Request, password string) (status int, msg string, err error) {
	wait, err := s.passwords().Confirm(r.Context(), userFrom(r.Context()), password, s.clientAddr(r), s.now())
	switch {
	case wait > 0:
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		return http.StatusTooManyRequests, tooManyMessage(wait), nil
	case errors.Is(err, auth.ErrMismatch):
		return http.StatusUnprocessableEntity, "This is not your current password.", nil
	}
	return 0, "", err
}

// adminRevokeToken is POST /admin/tokens/{id}/revoke: an admin ends anyone's token.
func (s *Server) adminRevokeToken(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	err := s.db.RevokeAnyToken(r.Context(), id, s.now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.errorPage(w, r, http.StatusNotFound, "There is no such live token.")
	case err != nil:
		s.fail(w, r, err)
	default:
		s.log.InfoContext(r.Context(), "API token revoked by an admin", "token_id", id, "by", userFrom(r.Context()).Username)
		http.Redirect(w, r, "/admin#tokens", http.StatusSeeOther)
	}
}
