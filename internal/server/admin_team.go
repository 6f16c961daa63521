package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/team"
	"github.com/rehearse/rehearse/internal/views"
)

// setEmail records the email an account is known by at the identity provider: a first sign-in
// with that address, verified by the provider, then signs in to this account (sso.Decide).
func (s *Server) setEmail(w http.ResponseWriter, r *http.Request) {
	id, err := userIDParam(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	email := strings.TrimSpace(r.PostFormValue("email"))
	if msg := team.CheckEmail(email); msg != "" {
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: msg})
		return
	}
	err = s.db.SetEmail(r.Context(), id, email)
	if errors.Is(err, store.ErrConflict) {
		s.renderAdmin(w, r, http.StatusConflict, &views.FormError{Form: "Another account already has the email " + email + "."})
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "account email changed", "user_id", id, "by", userFrom(r.Context()).Username)
	http.Redirect(w, r, "/admin#users", http.StatusSeeOther)
}
