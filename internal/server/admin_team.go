package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/store"
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
	if msg := checkEmail(email); msg != "" {
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: msg}, defaultInviteDays)
		return
	}
	err = s.db.SetEmail(r.Context(), id, email)
	if errors.Is(err, store.ErrConflict) {
		s.renderAdmin(w, r, http.StatusConflict, &views.FormError{Form: "Another account already has the email " + email + "."}, defaultInviteDays)
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "account email changed", "user_id", id, "by", userFrom(r.Context()).Username)
	http.Redirect(w, r, "/admin#users", http.StatusSeeOther)
}

// checkEmail accepts "" (no email) or something shaped like an address.
func checkEmail(e string) string {
	if e == "" {
		return ""
	}
	at := strings.IndexByte(e, '@')
	if len(e) > 254 || at < 1 || at == len(e)-1 || strings.ContainsAny(e, " \t\r\n<>,;") {
		return "The email " + e + " does not look like an address (name@example.com)."
	}
	return ""
}
