package server

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// dummyHash makes a login for an unknown user cost as much as one for a known user, so timing
// does not reveal which names exist. It is a constant (the hash of "not a real password" with
// auth's parameters, checked by TestDummyHashMatchesParameters): hashing it at package init
// cost every start 64 MiB and a third of a second.
const dummyHash = "$argon2id$v=19$m=65536,t=3,p=2$q+3U2XkyBFX3Oe7MdMBDCQ$NoBUF1Jlg7Ap5cm9Xe9jfaY+hiD0/w7suAz4HaRGSiQ"

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	if s.sendToSetup(w, r) {
		return
	}
	s.render(w, r, http.StatusOK, views.Login(s.page(r, "Log in"), views.LoginForm{Next: safeNext(r.URL.Query().Get("next"))}))
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PostFormValue("username"))
	password := r.PostFormValue("password")
	next := safeNext(r.PostFormValue("next"))
	// Throttle before any password check: per account (whether or not it exists, so the answer
	// reveals nothing) and per client address.
	keys := []string{accountKey(name), addrKey(s.clientAddr(r).String())}
	if blocked, wait := s.team.limiter.blocked(s.now(), keys...); blocked {
		mins := int(wait.Minutes()) + 1
		w.Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		s.render(w, r, http.StatusTooManyRequests, views.Login(s.page(r, "Log in"), views.LoginForm{
			Username: name, Next: next, Err: &views.FormError{Form: fmt.Sprintf(
				"Too many failed log-in attempts. Wait %d minutes and try again, or ask an administrator for a password-reset link.", mins)}}))
		return
	}
	u, err := s.db.UserByName(r.Context(), name)
	switch {
	case err == nil:
		err = auth.CheckPassword(u.PasswordHash, password)
		if err == nil && u.Disabled {
			err = auth.ErrMismatch
		}
	case errors.Is(err, store.ErrNotFound):
		auth.CheckPassword(dummyHash, password)
		err = auth.ErrMismatch
	}
	if errors.Is(err, auth.ErrMismatch) {
		s.team.limiter.fail(s.now(), keys...)
		s.render(w, r, http.StatusUnauthorized, views.Login(s.page(r, "Log in"), views.LoginForm{
			Username: name, Next: next, Err: &views.FormError{Form: "Wrong username or password."}}))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.team.limiter.clear(keys[0])
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if err := s.db.DeleteSession(r.Context(), auth.Digest(c.Value)); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	s.clearSessionCookie(w)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) setupPage(w http.ResponseWriter, r *http.Request) {
	if ok, err := s.usersExist(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	} else if ok {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusOK, views.Setup(s.page(r, "Set up"), views.SetupForm{}))
}

func (s *Server) setup(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PostFormValue("username"))
	password, password2 := r.PostFormValue("password"), r.PostFormValue("password2")
	fe := &views.FormError{Fields: map[string]string{}}
	if msg := ValidateUsername(name); msg != "" {
		fe.Fields["username"] = msg
	}
	if err := auth.ValidatePassword(password); err != nil {
		fe.Fields["password"] = "The password " + err.Error() + "."
	} else if password != password2 {
		fe.Fields["password2"] = "The two passwords differ."
	}
	if len(fe.Fields) > 0 {
		fe.Form = "Please correct the fields marked below."
		s.render(w, r, http.StatusUnprocessableEntity, views.Setup(s.page(r, "Set up"), views.SetupForm{Username: name, Err: fe}))
		return
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	u, err := s.db.CreateFirstAdmin(r.Context(), name, hash, s.now())
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
	if err := s.startSession(w, r, u); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// ValidateUsername says what is wrong with a user name ("" when it is fine).
func ValidateUsername(name string) string {
	if name == "" {
		return "Choose a username."
	}
	if len(name) > 64 {
		return "The username is longer than 64 characters."
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_') {
			return "Use letters, digits, dots, hyphens and underscores only."
		}
	}
	return ""
}

// safeNext keeps post-login redirects on this site. Control characters are refused outright:
// browsers drop tabs and newlines from a Location, so "/\t/evil.example" would become
// "//evil.example", another site.
func safeNext(next string) string {
	if next == "" || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") ||
		strings.ContainsFunc(next, unicode.IsControl) {
		return "/"
	}
	return next
}
