package server

import (
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// inviteRoutes registers the one-time links: open to anonymous visitors, even in private mode.
func (s *Server) inviteRoutes(r chi.Router) {
	r.Get("/invite/{token}", s.invitePage)
	r.Post("/invite/{token}", s.acceptInvite)
	r.Get("/reset/{token}", s.resetPage)
	r.Post("/reset/{token}", s.resetPassword)
}

var errLinkInvalid = errStatus(http.StatusNotFound, "This link is not valid: it may have expired or been used already. Ask an administrator for a new one.")

// linkToken reads the token from the path; an implausible one is treated like an unknown one.
func linkToken(r *http.Request) (string, bool) {
	t := chi.URLParam(r, "token")
	return t, t != "" && len(t) <= 100
}

// redactedPath is the request path with any one-time token replaced, for logs.
func redactedPath(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if t := rc.URLParam("token"); t != "" {
			return strings.Replace(r.URL.Path, t, "REDACTED", 1)
		}
	}
	return r.URL.Path
}

// redacted returns r with the token removed from its URL, so s.fail never logs a token.
func redacted(r *http.Request) *http.Request {
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = redactedPath(r), ""
	return r2
}

// noStore keeps pages holding a token out of caches.
func noStore(w http.ResponseWriter) { w.Header().Set("Cache-Control", "no-store") }

func (s *Server) invitePage(w http.ResponseWriter, r *http.Request) {
	noStore(w)
	token, ok := linkToken(r)
	if !ok {
		s.fail(w, redacted(r), errLinkInvalid)
		return
	}
	inv, err := s.db.InviteByDigest(r.Context(), auth.Digest(token), s.now())
	if errors.Is(err, store.ErrNotFound) {
		err = errLinkInvalid
	}
	if err != nil {
		s.fail(w, redacted(r), err)
		return
	}
	s.render(w, r, http.StatusOK, views.Signup(s.page(r, "Join"), views.SignupForm{Action: "/invite/" + token, Role: inv.Role}))
}

func (s *Server) acceptInvite(w http.ResponseWriter, r *http.Request) {
	noStore(w)
	token, ok := linkToken(r)
	if !ok {
		s.fail(w, redacted(r), errLinkInvalid)
		return
	}
	digest := auth.Digest(token)
	inv, err := s.db.InviteByDigest(r.Context(), digest, s.now())
	if errors.Is(err, store.ErrNotFound) {
		err = errLinkInvalid
	}
	if err != nil {
		s.fail(w, redacted(r), err)
		return
	}
	name := strings.TrimSpace(r.PostFormValue("username"))
	password, password2 := r.PostFormValue("password"), r.PostFormValue("password2")
	form := views.SignupForm{Action: "/invite/" + token, Role: inv.Role, Username: name}
	if fields := account.NewAccountFields(name, password, password2); len(fields) > 0 {
		form.Err = &views.FormError{Form: "Please correct the fields marked below.", Fields: fields}
		s.render(w, r, http.StatusUnprocessableEntity, views.Signup(s.page(r, "Join"), form))
		return
	}
	u, err := s.passwords().Join(r.Context(), s.db, digest, name, password, s.now())
	switch {
	case errors.Is(err, store.ErrConflict):
		form.Err = &views.FormError{Form: "Please correct the fields marked below.", Fields: map[string]string{"username": "This username is taken; choose another."}}
		s.render(w, r, http.StatusUnprocessableEntity, views.Signup(s.page(r, "Join"), form))
		return
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, redacted(r), errLinkInvalid)
		return
	case err != nil:
		s.fail(w, redacted(r), err)
		return
	}
	s.setupDone.Store(true)
	s.log.InfoContext(r.Context(), "invite accepted", "user", u.Username, "role", u.Role)
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, redacted(r), err)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) resetUser(w http.ResponseWriter, r *http.Request) (string, *store.User, bool) {
	token, ok := linkToken(r)
	if !ok {
		s.fail(w, redacted(r), errLinkInvalid)
		return "", nil, false
	}
	u, err := s.db.ResetUser(r.Context(), auth.Digest(token), s.now())
	if errors.Is(err, store.ErrNotFound) {
		err = errLinkInvalid
	}
	if err != nil {
		s.fail(w, redacted(r), err)
		return "", nil, false
	}
	return token, u, true
}

func (s *Server) resetPage(w http.ResponseWriter, r *http.Request) {
	noStore(w)
	token, u, ok := s.resetUser(w, r)
	if !ok {
		return
	}
	s.render(w, r, http.StatusOK, views.Reset(s.page(r, "New password"), views.ResetForm{Action: "/reset/" + token, Name: u.Username}))
}

func (s *Server) resetPassword(w http.ResponseWriter, r *http.Request) {
	noStore(w)
	token, u, ok := s.resetUser(w, r)
	if !ok {
		return
	}
	password := r.PostFormValue("password")
	if field, msg := account.CheckNewPassword(password, r.PostFormValue("password2")); msg != "" {
		fe := &views.FormError{Form: "Please correct the fields marked below.", Fields: map[string]string{field: msg}}
		s.render(w, r, http.StatusUnprocessableEntity, views.Reset(s.page(r, "New password"), views.ResetForm{Action: "/reset/" + token, Name: u.Username, Err: fe}))
		return
	}
	u, err := s.passwords().Reset(r.Context(), s.db, auth.Digest(token), password, s.now())
	if errors.Is(err, store.ErrNotFound) {
		err = errLinkInvalid
	}
	if err != nil {
		s.fail(w, redacted(r), err)
		return
	}
	s.log.InfoContext(r.Context(), "password reset through a link", "user", u.Username)
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, redacted(r), err)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
