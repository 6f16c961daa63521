package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// maxInvitesAtOnce bounds one form's invites (and so its work).
const maxInvitesAtOnce = 50

// inviteFor reads the "for" field: one invite per non-empty line, each line kept as the note
// of whom it is for; an empty field is one invite for nobody in particular.
func inviteFor(field string) ([]string, string) {
	var out []string
	for _, l := range strings.Split(field, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if len(l) > 200 {
			return nil, "Keep each line under 200 characters: one name or address per line."
		}
		out = append(out, l)
	}
	if len(out) > maxInvitesAtOnce {
		return nil, fmt.Sprintf("At most %d invites at once; this has %d lines.", maxInvitesAtOnce, len(out))
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out, ""
}

func (s *Server) createInvites(w http.ResponseWriter, r *http.Request) {
	role := r.PostFormValue("role")
	if role != store.RoleMember && role != store.RoleAdmin {
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: "Choose the member or admin role."}, defaultInviteDays)
		return
	}
	fe := &views.FormError{Form: "No invite was created.", Fields: map[string]string{}}
	days := defaultInviteDays
	if v := strings.TrimSpace(r.PostFormValue("days")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxInviteDays {
			fe.Fields["days"] = fmt.Sprintf("Give a whole number of days from 1 to %d.", maxInviteDays)
		}
		days = n
	}
	people, msg := inviteFor(r.PostFormValue("for"))
	if msg != "" {
		fe.Fields["for"] = msg
	}
	if len(fe.Fields) > 0 {
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, fe, defaultInviteDays)
		return
	}
	now := s.now()
	expires := now.Add(time.Duration(days) * 24 * time.Hour)
	vm := views.AdminLinks{Title: "Invite links created", What: fmt.Sprintf("%d invite link(s) for new %ss", len(people), role), Expires: expires}
	batch := make([]store.NewInvite, len(people))
	for i, who := range people {
		token, digest := auth.NewToken()
		batch[i] = store.NewInvite{Digest: digest, Note: who}
		vm.Links = append(vm.Links, views.AdminLink{For: who, URL: s.linkURL(r, "/invite/"+token)})
	}
	if err := s.db.CreateInvites(r.Context(), batch, role, userFrom(r.Context()).ID, now, expires); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "invites created", "n", len(batch), "role", role, "days", days, "by", userFrom(r.Context()).Username)
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
	u, msg := checkExternalURL(r.PostFormValue("url"))
	if msg != "" {
		s.renderAdmin(w, r, http.StatusUnprocessableEntity, &views.FormError{Form: "The address was not saved.", Fields: map[string]string{"url": msg}}, defaultInviteDays)
		return
	}
	if err := s.db.SetSetting(r.Context(), store.SettingExternalURL, u); err != nil {
		s.fail(w, r, err)
		return
	}
	s.log.InfoContext(r.Context(), "external URL changed", "url", u, "by", userFrom(r.Context()).Username)
	http.Redirect(w, r, "/admin#invite", http.StatusSeeOther)
}
