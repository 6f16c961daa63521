package server

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/team"
	"github.com/rehearse/rehearse/internal/views"
)

func (s *Server) createInvites(w http.ResponseWriter, r *http.Request) {
	req, msg, fields := team.ParseInvites(r.PostFormValue("role"), r.PostFormValue("days"), r.PostFormValue("for"))
	if msg != "" {
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: msg, Fields: fields})
		return
	}
	me := userFrom(r.Context())
	tokens, expires, err := team.CreateInvites(r.Context(), s.db, req, me.ID, s.now())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "invites created", "n", len(tokens), "role", req.Role, "days", req.Days, "by", me.Username)
	vm := views.AdminLinks{Title: "Invite links created", What: fmt.Sprintf("%d invite link(s) for new %ss", len(tokens), req.Role), Expires: expires}
	for i, token := range tokens {
		vm.Links = append(vm.Links, views.AdminLink{For: req.People[i], URL: s.linkURL(r, "/invite/"+token)})
	}
	// Shown once, not redirected: the tokens must not travel in a URL or be stored anywhere.
	noStore(w)
	p := s.page(r, vm.Title, "copy.js")
	p.CSS = append(p.CSS, s.assets.URL("team.css"))
	s.render(w, r, http.StatusCreated, views.AdminLinkPage(p, vm))
}

func (s *Server) revokeInvite(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err != nil || id <= 0 {
		s.fail(w, r, store.ErrNotFound)
		return
	}
	if err := s.db.RevokeInvite(r.Context(), id, s.now()); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "invite revoked", "invite", id, "by", userFrom(r.Context()).Username)
	http.Redirect(w, r, "/admin#invites", http.StatusSeeOther)
}

func (s *Server) setExternalURL(w http.ResponseWriter, r *http.Request) {
	if s.cfg.BaseURL != "" {
		s.fail(w, r, errStatus(http.StatusConflict, "The address is set by --base-url; change it there."))
		return
	}
	u, msg := team.CheckExternalURL(r.PostFormValue("url"))
	if msg != "" {
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: "The address was not saved.", Fields: map[string]string{"url": msg}})
		return
	}
	if err := s.db.SetSetting(r.Context(), store.SettingExternalURL, u); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "external URL changed", "url", u, "by", userFrom(r.Context()).Username)
	http.Redirect(w, r, "/admin#invite", http.StatusSeeOther)
}
