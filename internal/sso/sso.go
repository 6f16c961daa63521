// Package sso signs people in through an OpenID Connect provider: the authorization code flow
// with PKCE, a state bound to the browser and a nonce bound to the ID token, and the checks on
// that token (signature, issuer, audience, expiry) done by coreos/go-oidc. It also holds the
// rules for what a verified identity becomes here (account.go). It reads no clock of its own:
// the caller passes one in.
package sso

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Config is what the provider was registered with.
type Config struct {
	Issuer       string // discovery starts at Issuer + "/.well-known/openid-configuration"
	ClientID     string
	ClientSecret string
	// GroupsClaim names the claim listing the user's groups ("" for "groups"); AdminGroup, when
	// set, is the group whose members are admins here.
	GroupsClaim string
	AdminGroup  string
}

// Identity is who the provider vouched for.
type Identity struct {
	Issuer, Subject   string
	Email             string
	EmailVerified     bool
	PreferredUsername string
	Name              string
	Groups            []string
}

// InGroup reports whether the identity lists group g.
func (id Identity) InGroup(g string) bool { return g != "" && slices.Contains(id.Groups, g) }

// Flow is what one sign-in keeps between leaving for the provider and coming back: the state
// the browser must return, the nonce the ID token must carry and the PKCE verifier.
type Flow struct {
	State, Nonce, Verifier string
}

// Errors a caller tells apart: the visitor's sign-in failed (show it), or the provider could
// not be reached (try later).
var (
	ErrRefused     = errors.New("sso: sign-in refused")
	ErrUnreachable = errors.New("sso: provider unreachable")
)

// Client talks to one provider. Discovery happens on first use and again after a failure, so
// the server starts while the provider is down.
type Client struct {
	cfg    Config
	now    func() time.Time
	http   *http.Client
	mu     sync.Mutex
	prov   *oidc.Provider
	tried  time.Time // last failed discovery, to not hammer a provider that is down
	triedE error
}

// New returns a client; now is the clock ID tokens are checked against.
func New(cfg Config, now func() time.Time) *Client {
	if cfg.GroupsClaim == "" {
		cfg.GroupsClaim = "groups"
	}
	cfg.Issuer = strings.TrimRight(cfg.Issuer, "/")
	return &Client{cfg: cfg, now: now, http: &http.Client{Timeout: 10 * time.Second}}
}

// Issuer is the provider's issuer URL.
func (c *Client) Issuer() string { return c.cfg.Issuer }

// AdminGroup is the group that makes an admin ("" when groups grant nothing).
func (c *Client) AdminGroup() string { return c.cfg.AdminGroup }

// rediscoverAfter is how long a failed discovery is remembered before trying again.
const rediscoverAfter = 10 * time.Second

func (c *Client) provider(ctx context.Context) (*oidc.Provider, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.prov != nil {
		return c.prov, nil
	}
	if !c.tried.IsZero() && c.now().Sub(c.tried) < rediscoverAfter {
		return nil, c.triedE
	}
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, c.http), c.cfg.Issuer)
	if err != nil {
		c.tried, c.triedE = c.now(), fmt.Errorf("%w: discovery at %s: %v", ErrUnreachable, c.cfg.Issuer, err)
		return nil, c.triedE
	}
	c.prov = p
	return p, nil
}

func (c *Client) oauth(p *oidc.Provider, redirectURL string) *oauth2.Config {
	return &oauth2.Config{ClientID: c.cfg.ClientID, ClientSecret: c.cfg.ClientSecret, Endpoint: p.Endpoint(),
		RedirectURL: redirectURL, Scopes: []string{oidc.ScopeOpenID, "profile", "email"}}
}

// Start begins a sign-in: the URL to send the browser to, and the Flow to keep (in a cookie)
// until it comes back to redirectURL.
func (c *Client) Start(ctx context.Context, redirectURL string) (string, Flow, error) {
	p, err := c.provider(ctx)
	if err != nil {
		return "", Flow{}, err
	}
	f := Flow{State: random(), Nonce: random(), Verifier: oauth2.GenerateVerifier()}
	u := c.oauth(p, redirectURL).AuthCodeURL(f.State, oidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier))
	return u, f, nil
}

// Finish completes a sign-in from the provider's answer: the state must be the one this
// browser left with, the code is exchanged with the PKCE verifier, and the ID token must be
// signed by the provider, for this client, unexpired and carry the nonce. Claims the ID token
// lacks (email, groups) are read from the userinfo endpoint.
func (c *Client) Finish(ctx context.Context, redirectURL string, f Flow, state, code string) (Identity, error) {
	if f.State == "" || subtle.ConstantTimeCompare([]byte(state), []byte(f.State)) != 1 {
		return Identity{}, fmt.Errorf("%w: the state does not match this browser's sign-in", ErrRefused)
	}
	if code == "" {
		return Identity{}, fmt.Errorf("%w: the provider sent no code", ErrRefused)
	}
	p, err := c.provider(ctx)
	if err != nil {
		return Identity{}, err
	}
	ctx = oidc.ClientContext(ctx, c.http)
	oc := c.oauth(p, redirectURL)
	tok, err := oc.Exchange(ctx, code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return Identity{}, fmt.Errorf("%w: the provider refused the code: %s", ErrRefused, re.ErrorCode)
		}
		return Identity{}, fmt.Errorf("%w: code exchange: %v", ErrUnreachable, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, fmt.Errorf("%w: the provider sent no ID token", ErrRefused)
	}
	id, err := c.Verify(ctx, raw, f.Nonce)
	if err != nil {
		return Identity{}, err
	}
	if id.Email == "" || (c.cfg.AdminGroup != "" && id.Groups == nil) {
		if ui, err := p.UserInfo(ctx, oc.TokenSource(ctx, tok)); err == nil && ui.Subject == id.Subject {
			var extra map[string]any
			ui.Claims(&extra)
			if id.Email == "" {
				id.Email, id.EmailVerified = ui.Email, ui.EmailVerified
			}
			if id.Groups == nil {
				id.Groups = stringList(extra[c.cfg.GroupsClaim])
			}
		}
	}
	return id, nil
}

// Verify checks a raw ID token (signature, issuer, audience = our client id, expiry against the
// client's clock) and that it carries nonce, and returns the identity it names.
func (c *Client) Verify(ctx context.Context, raw, nonce string) (Identity, error) {
	p, err := c.provider(ctx)
	if err != nil {
		return Identity{}, err
	}
	v := p.Verifier(&oidc.Config{ClientID: c.cfg.ClientID, Now: c.now})
	tok, err := v.Verify(oidc.ClientContext(ctx, c.http), raw)
	if err != nil {
		return Identity{}, fmt.Errorf("%w: ID token: %v", ErrRefused, err)
	}
	if nonce == "" || subtle.ConstantTimeCompare([]byte(tok.Nonce), []byte(nonce)) != 1 {
		return Identity{}, fmt.Errorf("%w: the ID token's nonce is not this sign-in's", ErrRefused)
	}
	var claims map[string]any
	if err := tok.Claims(&claims); err != nil {
		return Identity{}, fmt.Errorf("%w: ID token claims: %v", ErrRefused, err)
	}
	id := Identity{Issuer: tok.Issuer, Subject: tok.Subject}
	id.Email, _ = claims["email"].(string)
	id.EmailVerified = claimBool(claims["email_verified"])
	id.PreferredUsername, _ = claims["preferred_username"].(string)
	id.Name, _ = claims["name"].(string)
	if g, ok := claims[c.cfg.GroupsClaim]; ok {
		id.Groups = stringList(g)
	}
	return id, nil
}

// claimBool reads email_verified, which some providers send as the string "true".
func claimBool(v any) bool {
	switch b := v.(type) {
	case bool:
		return b
	case string:
		return b == "true"
	}
	return false
}

// stringList reads a groups claim: a JSON array of strings, or one string.
func stringList(v any) []string {
	switch g := v.(type) {
	case []any:
		out := make([]string, 0, len(g))
		for _, e := range g {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case string:
		return []string{g}
	}
	return nil
}

func random() string {
	b := make([]byte, 24)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
