package server

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/views"
)

// accountRoutes registers /account for every signed-in user.
func (s *Server) accountRoutes(r chi.Router) {
	r.Group(func(r chi.Router) {
		r.Use(s.requireUser)
		r.Get("/account", s.accountPage)
		r.Post("/account/password", s.changePassword)
		r.Post("/account/sessions", s.signOutEverywhere)
		r.Post("/account/team", s.setTeamVisibility)
		s.tokenRoutes(r) // tokens.go
	})
}

var accountNotices = map[string]string{
	"password": "Your password was changed. Other sessions were signed out.",
	"team":     "Saved.",
	"token":    "The token was revoked: requests using it now get 401.",
	"theme":    "Theme saved.",
}

func (s *Server) accountPage(w http.ResponseWriter, r *http.Request) {
	s.renderAccount(w, r, http.StatusOK, nil)
}

func (s *Server) renderAccount(w http.ResponseWriter, r *http.Request, status int, fe *views.FormError) {
	s.renderAccountWith(w, r, status, fe, "", "", "")
}

// renderAccountTokens shows the account page after a token action (tokens.go).
func (s *Server) renderAccountTokens(w http.ResponseWriter, r *http.Request, status int, fresh, freshName, errMsg string) {
	s.renderAccountWith(w, r, status, nil, fresh, freshName, errMsg)
}

func (s *Server) renderAccountWith(w http.ResponseWriter, r *http.Request, status int, fe *views.FormError, fresh, freshName, tokenErr string) {
	u := userFrom(r.Context())
	p := s.page(r, "Account")
	p.Notice = accountNotices[r.URL.Query().Get("saved")]
	tokens, err := s.tokensSection(r, fresh, freshName, tokenErr)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	shares, err := s.db.Shares(r.Context(), u.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.render(w, r, status, views.Account(p, views.AccountPage{Name: u.Username, Role: u.Role, Shares: shares, Err: fe, Theme: p.Theme, Tokens: tokens}))
}

func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	current, password, password2 := r.PostFormValue("current"), r.PostFormValue("password"), r.PostFormValue("password2")
	fe := &views.FormError{Fields: map[string]string{}}
	status, msg, err := s.checkOwnPassword(w, r, current)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if status == http.StatusTooManyRequests {
		s.renderAccount(w, r, status, &views.FormError{Form: msg})
		return
	}
	if status != 0 {
		fe.Fields["current"] = msg
	}
	if field, msg := account.CheckNewPassword(password, password2); msg != "" {
		fe.Fields[field] = msg
	}
	if len(fe.Fields) > 0 {
		fe.Form = "The password was not changed. Please correct the fields marked below."
		s.renderAccount(w, r, http.StatusUnprocessableEntity, fe)
		return
	}
	if err := s.passwords().Change(r.Context(), s.db, u, password, s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	// Every session ended with the old password; this browser gets a fresh one.
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "password changed", "user", u.Username)
	http.Redirect(w, r, "/account?saved=password", http.StatusSeeOther)
}

func (s *Server) signOutEverywhere(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	if err := s.db.DeleteUserSessions(r.Context(), u.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	s.clearSessionCookie(w, r)
	s.log.InfoContext(r.Context(), "signed out of all sessions", "user", u.Username)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

func (s *Server) setTeamVisibility(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	if err := s.db.SetSharing(r.Context(), u.ID, r.PostFormValue("share") == "on", s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/account?saved=team", http.StatusSeeOther)
}
