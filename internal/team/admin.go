package team

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Bounds of the links an admin makes.
const (
	DefaultInviteDays = 7
	MaxInviteDays     = 30
	// MaxInvitesAtOnce bounds one form's invites (and so its work).
	MaxInvitesAtOnce = 50
	ResetTTL         = 24 * time.Hour
)

// AdminStore is what the admin page reads (the store implements it).
type AdminStore interface {
	Users(ctx context.Context) ([]*store.User, error)
	Invites(ctx context.Context, since time.Time) ([]store.Invite, error)
	Emails(ctx context.Context) (map[int64]string, error)
	LiveTokens(ctx context.Context) ([]store.TokenOwner, error)
	Setting(ctx context.Context, key string) (string, error)
}

// Admin is the admin page's accounts, the invites of the last MaxInviteDays with their state,
// every live API token and the card-editing setting, as the admin me sees them at now. The
// deck and the address sections are the server's to fill in.
func Admin(ctx context.Context, db AdminStore, me int64, now time.Time) (views.AdminPage, error) {
	vm := views.AdminPage{InviteDays: DefaultInviteDays}
	users, err := db.Users(ctx)
	if err != nil {
		return vm, err
	}
	invites, err := db.Invites(ctx, now.Add(-MaxInviteDays*24*time.Hour))
	if err != nil {
		return vm, err
	}
	emails, err := db.Emails(ctx)
	if err != nil {
		return vm, err
	}
	tokens, err := db.LiveTokens(ctx)
	if err != nil {
		return vm, err
	}
	membersEdit, err := db.Setting(ctx, store.SettingMembersEdit)
	if err != nil {
		return vm, err
	}
	for _, u := range users {
		vm.Users = append(vm.Users, views.AdminUser{ID: u.ID, Name: u.Username, Role: u.Role,
			Disabled: u.Disabled, Created: u.CreatedAt, Self: u.ID == me, Email: emails[u.ID]})
	}
	for _, i := range invites {
		vm.Invites = append(vm.Invites, views.AdminInvite{ID: i.ID, For: i.Note, Pending: i.Pending(now), Role: i.Role,
			CreatedBy: i.CreatedBy, Expires: i.ExpiresAt, Status: inviteStatus(i, now)})
	}
	owned := make([]views.OwnedToken, 0, len(tokens))
	for _, t := range tokens {
		owned = append(owned, views.OwnedToken{Token: views.Token{ID: t.ID, Name: t.Name, Created: t.CreatedAt, LastUsed: t.LastUsed}, User: t.Username})
	}
	vm.Tokens = views.AdminTokensSection(owned)
	vm.Editing = views.EditingSection(views.EditingSetting{MembersEdit: membersEdit == "1"})
	return vm, nil
}

// inviteStatus is an invite's state in words.
func inviteStatus(i store.Invite, now time.Time) string {
	switch {
	case !i.UsedAt.IsZero():
		return "used by " + i.UsedBy
	case !i.RevokedAt.IsZero():
		return "revoked"
	case !i.Pending(now):
		return "expired"
	}
	return "pending"
}

// InviteRequest is a checked invite form: the role, how long the links last, and whom each
// link is for ("" for nobody in particular).
type InviteRequest struct {
	Role   string
	Days   int
	People []string
}

// ParseInvites checks the invite form: the role, the days ("" is DefaultInviteDays) and the
// "for" field, one invite per non-empty line, each line kept as the note of whom it is for (an
// empty field is one invite for nobody in particular). A wrong role is the whole form's error;
// the others are the fields'.
func ParseInvites(role, days, forField string) (req InviteRequest, form string, fields map[string]string) {
	if role != store.RoleMember && role != store.RoleAdmin {
		return req, "Choose the member or admin role.", nil
	}
	req = InviteRequest{Role: role, Days: DefaultInviteDays}
	fields = map[string]string{}
	if v := strings.TrimSpace(days); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxInviteDays {
			fields["days"] = fmt.Sprintf("Give a whole number of days from 1 to %d.", MaxInviteDays)
		}
		req.Days = n
	}
	for _, l := range strings.Split(forField, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if len(l) > 200 {
			fields["for"] = "Keep each line under 200 characters: one name or address per line."
			break
		}
		req.People = append(req.People, l)
	}
	if len(req.People) > MaxInvitesAtOnce && fields["for"] == "" {
		fields["for"] = fmt.Sprintf("At most %d invites at once; this has %d lines.", MaxInvitesAtOnce, len(req.People))
	}
	if len(req.People) == 0 {
		req.People = []string{""}
	}
	if len(fields) > 0 {
		return req, "No invite was created.", fields
	}
	return req, "", nil
}

// InviteStore stores invites (the store implements it).
type InviteStore interface {
	CreateInvites(ctx context.Context, list []store.NewInvite, role string, createdBy int64, now, expires time.Time) error
}

// CreateInvites stores req's invites, made by the admin by at now, all or none: one random
// token per person, stored hashed. The tokens (in req.People's order) are for the links and
// are shown once.
func CreateInvites(ctx context.Context, db InviteStore, req InviteRequest, by int64, now time.Time) (tokens []string, expires time.Time, err error) {
	expires = now.Add(time.Duration(req.Days) * 24 * time.Hour)
	batch := make([]store.NewInvite, len(req.People))
	tokens = make([]string, len(req.People))
	for i, who := range req.People {
		token, digest := auth.NewToken()
		batch[i], tokens[i] = store.NewInvite{Digest: digest, Note: who}, token
	}
	if err := db.CreateInvites(ctx, batch, req.Role, by, now, expires); err != nil {
		return nil, time.Time{}, err
	}
	return tokens, expires, nil
}

// CheckEmail accepts "" (no email) or something shaped like an address, else says what is wrong.
func CheckEmail(e string) string {
	if e == "" {
		return ""
	}
	at := strings.IndexByte(e, '@')
	if len(e) > 254 || at < 1 || at == len(e)-1 || strings.ContainsAny(e, " \t\r\n<>,;") {
		return "The email " + e + " does not look like an address (name@example.com)."
	}
	return ""
}

// CheckExternalURL normalises an external address an admin typed, or says what is wrong.
func CheckExternalURL(v string) (string, string) {
	v = strings.TrimRight(strings.TrimSpace(v), "/")
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", "Give the address people open, starting with https:// (or http://), without a query."
	}
	return u.Scheme + "://" + u.Host + strings.TrimRight(u.EscapedPath(), "/"), ""
}

// ResetStore is what making a password-reset link reads and writes (the store implements it).
type ResetStore interface {
	UserByID(ctx context.Context, id int64) (*store.User, error)
	CreateReset(ctx context.Context, digest []byte, userID int64, now, expires time.Time) error
}

// CreateReset makes a password-reset link for the account id at now, valid for ResetTTL: the
// account, and the link's token (stored hashed, shown once).
func CreateReset(ctx context.Context, db ResetStore, id int64, now time.Time) (*store.User, string, error) {
	u, err := db.UserByID(ctx, id)
	if err != nil {
		return nil, "", err
	}
	token, digest := auth.NewToken()
	if err := db.CreateReset(ctx, digest, u.ID, now, now.Add(ResetTTL)); err != nil {
		return nil, "", err
	}
	return u, token, nil
}
