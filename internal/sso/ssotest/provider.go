// Package ssotest runs a real OpenID Connect provider in the test process: zitadel/oidc's op
// package with its example storage (clients, users, signing keys in memory) and its login form.
// Tests sign in through it exactly as through Keycloak: discovery, the code flow with PKCE,
// signed ID tokens. Only tests import it.
package ssotest

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// Password is every test user's password at the provider.
const Password = "provider-secret-1"

// User is someone with an account at the provider.
type User struct {
	ID, Username, Email string
	EmailVerified       bool
	Groups              []string
}

// Provider is a running provider.
type Provider struct {
	URL    string // the issuer
	server *httptest.Server
}

var clientSeq atomic.Int64

// Client is a client registered at the provider.
type Client struct{ ID, Secret string }

// Start runs a provider with these users until the test ends.
func Start(t testing.TB, users ...User) *Provider {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	issuer := "http://" + srv.Listener.Addr().String()
	st := &groupStorage{Storage: storage.NewStorage(userStore(users)), groups: map[string][]string{}}
	for _, u := range users {
		st.groups[u.ID] = u.Groups
	}
	srv.Config.Handler = exampleop.SetupServer(issuer, st, nil, false, op.WithAllowInsecure())
	srv.Start()
	t.Cleanup(srv.Close)
	return &Provider{URL: issuer, server: srv}
}

// Register adds a confidential web client allowed to come back to redirectURI.
func (p *Provider) Register(redirectURI string) Client {
	return p.RegisterID("rehearse-"+strconv.FormatInt(clientSeq.Add(1), 10), redirectURI)
}

// RegisterID registers a client with the given id and the secret "client-secret" (the example
// storage keeps clients in one table for the process, so ids must differ between tests).
func (p *Provider) RegisterID(id, redirectURI string) Client {
	c := Client{ID: id, Secret: "client-secret"}
	storage.RegisterClients(storage.WebClient(c.ID, c.Secret, redirectURI))
	return c
}

// SignIn follows authURL as a browser would, signs in at the provider's form as username and
// returns the URL the provider sent the browser back to (the client's redirect URI with the
// code and state), without following it.
func (p *Provider) SignIn(ctx context.Context, t testing.TB, authURL, redirectURI, username string) *url.URL {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	var back *url.URL
	hc := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), redirectURI) {
			back = req.URL
			return http.ErrUseLastResponse
		}
		return nil
	}}
	resp, err := hc.Get(authURL)
	if err != nil {
		t.Fatalf("open the provider's authorization URL: %v", err)
	}
	resp.Body.Close()
	id := resp.Request.URL.Query().Get("authRequestID")
	if id == "" {
		t.Fatalf("the provider did not show its login form (at %s, status %d)", resp.Request.URL, resp.StatusCode)
	}
	resp, err = hc.PostForm(p.URL+"/login/username", url.Values{"id": {id}, "username": {username}, "password": {Password}})
	if err != nil {
		t.Fatalf("sign in at the provider: %v", err)
	}
	resp.Body.Close()
	if back == nil {
		t.Fatalf("the provider did not send the browser back (status %d at %s)", resp.StatusCode, resp.Request.URL)
	}
	return back
}

type users map[string]*storage.User

func userStore(list []User) storage.UserStore {
	m := users{}
	for _, u := range list {
		m[u.ID] = &storage.User{ID: u.ID, Username: u.Username, Password: Password, FirstName: u.Username,
			LastName: "Tester", Email: u.Email, EmailVerified: u.EmailVerified, PreferredLanguage: language.English}
	}
	return m
}

func (m users) GetUserByID(id string) *storage.User { return m[id] }
func (m users) GetUserByUsername(name string) *storage.User {
	for _, u := range m {
		if u.Username == name {
			return u
		}
	}
	return nil
}
func (m users) ExampleClientID() string { return storage.ServiceUserID }

// groupStorage adds a "groups" claim to what the userinfo endpoint answers, as Keycloak's
// group mapper does.
type groupStorage struct {
	*storage.Storage
	groups map[string][]string
}

func (s *groupStorage) SetUserinfoFromToken(ctx context.Context, ui *oidc.UserInfo, tokenID, subject, origin string) error {
	if err := s.Storage.SetUserinfoFromToken(ctx, ui, tokenID, subject, origin); err != nil {
		return err
	}
	if g := s.groups[ui.Subject]; g != nil {
		ui.AppendClaims("groups", g)
	}
	return nil
}
