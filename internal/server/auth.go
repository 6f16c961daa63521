package server

import (
	"errors"
	"fmt"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/rehearse/rehearse/internal/account"
	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	if s.sendToSetup(w, r) {
		return
	}
	s.render(w, r, http.StatusOK, views.Login(s.page(r, "Log in"), s.loginForm(r, safeNext(r.URL.Query().Get("next")))))
}

// loginForm is the login page as configured: the password form, the provider's button or both.
func (s *Server) loginForm(r *http.Request, next string) views.LoginForm {
	f := views.LoginForm{Next: next, Passwords: !s.cfg.NoPasswords}
	if s.cfg.OIDC != nil {
		f.SSOName = s.cfg.OIDCName
		ok, _ := s.usersExist(r.Context())
		f.FirstSignIn = !ok
	}
	return f
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PostFormValue("username"))
	password := r.PostFormValue("password")
	next := safeNext(r.PostFormValue("next"))
	form := s.loginForm(r, next)
	form.Username = name
	if s.cfg.NoPasswords {
		form.Err = &views.FormError{Form: "Passwords are turned off on this instance."}
		s.render(w, r, http.StatusForbidden, views.Login(s.page(r, "Log in"), form))
		return
	}
	u, wait, err := s.passwords().Login(r.Context(), s.db, name, password, s.clientAddr(r), s.now())
	switch {
	case wait > 0:
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		form.Err = &views.FormError{Form: tooManyMessage(wait)}
		s.render(w, r, http.StatusTooManyRequests, views.Login(s.page(r, "Log in"), form))
		return
	case errors.Is(err, auth.ErrMismatch):
		form.Err = &views.FormError{Form: "Wrong username or password."}
		s.render(w, r, http.StatusUnauthorized, views.Login(s.page(r, "Log in"), form))
		return
	case err != nil:
		s.fail(w, r, err)
		return
	}
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// passwords checks passwords, counted by the login limiter (account.Passwords).
func (s *Server) passwords() account.Passwords {
	return account.Passwords{Hasher: s.hasher, Limiter: s.limiter}
}

func tooManyMessage(wait time.Duration) string {
	if wait < 2*time.Minute {
		return fmt.Sprintf("Too many failed log-in attempts. Wait %d seconds and try again, or ask an administrator for a password-reset link.", int(wait.Seconds())+1)
	}
	return fmt.Sprintf("Too many failed log-in attempts. Wait %d minutes and try again, or ask an administrator for a password-reset link.", int(wait.Minutes())+1)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if err := s.db.DeleteSession(r.Context(), auth.Digest(c.Value)); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.clearSessionCookie(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) setupPage(w http.ResponseWriter, r *http.Request) {
	if ok, err := s.usersExist(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	} else if ok || s.signsInFromOutside() {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusOK, views.Setup(s.page(r, "Set up"), views.SetupForm{}))
}

func (s *Server) setup(w http.ResponseWriter, r *http.Request) {
	if s.signsInFromOutside() {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	name := strings.TrimSpace(r.PostFormValue("username"))
	password, password2 := r.PostFormValue("password"), r.PostFormValue("password2")
	if fields := account.NewAccountFields(name, password, password2); len(fields) > 0 {
		fe := &views.FormError{Form: "Please correct the fields marked below.", Fields: fields}
		s.render(w, r, http.StatusUnprocessableEntity, views.Setup(s.page(r, "Set up"), views.SetupForm{Username: name, Err: fe}))
		return
	}
	u, err := s.passwords().FirstAdmin(r.Context(), s.db, name, password, s.now())
	if errors.Is(err, store.ErrConflict) {
		s.setupDone.Store(true)
		s.errorPage(w, r, http.StatusConflict, "This instance is already set up. Log in instead.")
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.setupDone.Store(true)
	s.recordURL(r) // baseurl.go: invite links are absolute from now on
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// safeNext keeps post-login redirects on this site. It judges the path as http.Redirect will
// send it (cleaned: "/./\evil.example" becomes "/\evil.example"), and refuses backslashes and
// control characters outright: browsers read "\" as "/" and drop tabs and newlines, so
// either could turn the path into "//evil.example", another site.
func safeNext(next string) string {
	if next == "" || len(next) > 2048 || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsRune(next, '\\') ||
		strings.ContainsFunc(next, unicode.IsControl) {
		return "/"
	}
	p, query, hasQuery := strings.Cut(next, "?")
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	if strings.HasPrefix(clean, "//") {
		return "/"
	}
	if hasQuery {
		clean += "?" + query
	}
	return clean
}
