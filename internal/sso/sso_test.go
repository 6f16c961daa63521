package sso_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/sso/ssotest"
)

const redirect = "http://rehearse.test/auth/oidc/callback"

var ada = ssotest.User{ID: "u-ada", Username: "ada", Email: "ada@example.com", EmailVerified: true, Groups: []string{"engineers", "rehearse-admins"}}

func setup(t *testing.T, now func() time.Time) (*ssotest.Provider, ssotest.Client, *sso.Client) {
	p := ssotest.Start(t, ada, ssotest.User{ID: "u-bob", Username: "bob", Email: "bob@example.com"})
	c := p.Register(redirect)
	if now == nil {
		now = time.Now
	}
	return p, c, sso.New(sso.Config{Issuer: p.URL, ClientID: c.ID, ClientSecret: c.Secret, AdminGroup: "rehearse-admins"}, now)
}

// begin starts a sign-in and signs in at the provider, returning the flow and its answer.
func begin(t *testing.T, p *ssotest.Provider, c *sso.Client, user string) (sso.Flow, url.Values) {
	t.Helper()
	authURL, flow, err := c.Start(context.Background(), redirect)
	if err != nil {
		t.Fatal(err)
	}
	return flow, p.SignIn(context.Background(), t, authURL, redirect, user).Query()
}

func TestCodeFlowWithPKCE(t *testing.T) {
	p, _, c := setup(t, nil)
	authURL, flow, err := c.Start(context.Background(), redirect)
	if err != nil {
		t.Fatal(err)
	}
	q := mustQuery(t, authURL)
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("code_challenge") == flow.Verifier {
		t.Fatalf("authorization request without an S256 PKCE challenge: %v", q)
	}
	if q.Get("state") != flow.State || q.Get("nonce") != flow.Nonce || q.Get("response_type") != "code" {
		t.Fatalf("authorization request: %v, flow %+v", q, flow)
	}
	back := p.SignIn(context.Background(), t, authURL, redirect, "ada").Query()
	id, err := c.Finish(context.Background(), redirect, flow, back.Get("state"), back.Get("code"))
	if err != nil {
		t.Fatalf("finish: %v", err)
	}
	if id.Subject != "u-ada" || id.Issuer != p.URL || id.Email != "ada@example.com" || !id.EmailVerified || !id.InGroup("rehearse-admins") {
		t.Fatalf("identity %+v", id)
	}
	// A code is used once.
	if _, err := c.Finish(context.Background(), redirect, flow, back.Get("state"), back.Get("code")); !errors.Is(err, sso.ErrRefused) {
		t.Fatalf("a code used twice: %v, want refused", err)
	}
}

func TestStateMismatchRefused(t *testing.T) {
	p, _, c := setup(t, nil)
	flow, back := begin(t, p, c, "ada")
	// The answer to someone else's sign-in (another state) arriving in this browser.
	if _, err := c.Finish(context.Background(), redirect, flow, back.Get("state")+"x", back.Get("code")); !errors.Is(err, sso.ErrRefused) || !strings.Contains(err.Error(), "state") {
		t.Fatalf("wrong state: %v", err)
	}
	other := flow
	other.State = ""
	if _, err := c.Finish(context.Background(), redirect, other, "", back.Get("code")); !errors.Is(err, sso.ErrRefused) {
		t.Fatalf("no state: %v", err)
	}
}

func TestNonceMismatchRefused(t *testing.T) {
	p, _, c := setup(t, nil)
	flow, back := begin(t, p, c, "ada")
	flow.Nonce = "a-nonce-this-sign-in-did-not-send"
	if _, err := c.Finish(context.Background(), redirect, flow, back.Get("state"), back.Get("code")); !errors.Is(err, sso.ErrRefused) || !strings.Contains(err.Error(), "nonce") {
		t.Fatalf("wrong nonce: %v", err)
	}
}

func TestPKCEVerifierChecked(t *testing.T) {
	p, _, c := setup(t, nil)
	flow, back := begin(t, p, c, "ada")
	flow.Verifier = oauth2.GenerateVerifier() // a stolen code without this browser's verifier
	if _, err := c.Finish(context.Background(), redirect, flow, back.Get("state"), back.Get("code")); !errors.Is(err, sso.ErrRefused) {
		t.Fatalf("wrong PKCE verifier: %v, want the provider to refuse the code", err)
	}
}

func TestExpiredTokenRefused(t *testing.T) {
	late := func() time.Time { return time.Now().Add(2 * time.Hour) } // the provider's ID tokens last an hour
	p, _, c := setup(t, late)
	flow, back := begin(t, p, c, "ada")
	_, err := c.Finish(context.Background(), redirect, flow, back.Get("state"), back.Get("code"))
	if !errors.Is(err, sso.ErrRefused) || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired ID token: %v", err)
	}
}

func TestWrongAudienceRefused(t *testing.T) {
	p, other, otherClient := setup(t, nil)
	// A token the provider issued to another client, for us to be fooled with.
	flow, back := begin(t, p, otherClient, "ada")
	prov, err := oidc.NewProvider(context.Background(), p.URL)
	if err != nil {
		t.Fatal(err)
	}
	oc := oauth2.Config{ClientID: other.ID, ClientSecret: other.Secret, Endpoint: prov.Endpoint(), RedirectURL: redirect}
	tok, err := oc.Exchange(context.Background(), back.Get("code"), oauth2.VerifierOption(flow.Verifier))
	if err != nil {
		t.Fatal(err)
	}
	raw := tok.Extra("id_token").(string)
	if _, err := otherClient.Verify(context.Background(), raw, flow.Nonce); err != nil {
		t.Fatalf("the token is good for the client it was issued to: %v", err)
	}
	us := p.Register(redirect)
	c := sso.New(sso.Config{Issuer: p.URL, ClientID: us.ID, ClientSecret: us.Secret}, time.Now)
	if _, err := c.Verify(context.Background(), raw, flow.Nonce); !errors.Is(err, sso.ErrRefused) || !strings.Contains(err.Error(), "audience") {
		t.Fatalf("another client's token: %v, want refused for its audience", err)
	}
}

func TestProviderDownIsUnreachable(t *testing.T) {
	c := sso.New(sso.Config{Issuer: "http://127.0.0.1:1", ClientID: "x"}, time.Now)
	if _, _, err := c.Start(context.Background(), redirect); !errors.Is(err, sso.ErrUnreachable) {
		t.Fatalf("start with the provider down: %v", err)
	}
}

func mustQuery(t *testing.T, s string) url.Values {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}
