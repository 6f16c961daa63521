package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/rehearse/rehearse/internal/server"
	"github.com/rehearse/rehearse/internal/sso"
)

// validateSignIn checks the single sign-on and login proxy settings; each error names its flag.
func (c *config) validateSignIn() error {
	if c.OIDCIssuer != "" {
		u, err := url.Parse(c.OIDCIssuer)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("-oidc-issuer: want the provider's https:// issuer URL, got %q", c.OIDCIssuer)
		}
		if c.OIDCClientID == "" {
			return errors.New("-oidc-client-id: required with -oidc-issuer")
		}
		if _, err := sso.ParseAccounts(c.OIDCAccounts); err != nil {
			return fmt.Errorf("-oidc-accounts: %w", err)
		}
	}
	if c.AuthProxyHeader != "" {
		if len(c.TrustedProxies) == 0 {
			return errors.New("-auth-proxy-header: needs -trusted-proxies, the addresses the header is believed from")
		}
		if http.CanonicalHeaderKey(c.AuthProxyHeader) == "Cookie" || http.CanonicalHeaderKey(c.AuthProxyHeader) == "Authorization" {
			return fmt.Errorf("-auth-proxy-header: %q cannot name the user", c.AuthProxyHeader)
		}
	} else if c.AuthProxyEmailHeader != "" {
		return errors.New("-auth-proxy-email-header: needs -auth-proxy-header")
	}
	if !c.PasswordLogin && c.OIDCIssuer == "" && c.AuthProxyHeader == "" {
		return errors.New("-password-login=false: nobody could sign in; set -oidc-issuer or -auth-proxy-header")
	}
	return nil
}

// signIn fills the server's sign-in settings; now is the clock ID tokens are checked against.
func (c config) signIn(sc *server.Config, now func() time.Time) {
	sc.NoPasswords = !c.PasswordLogin
	sc.AuthProxyHeader, sc.AuthProxyEmailHeader = c.AuthProxyHeader, c.AuthProxyEmailHeader
	if c.OIDCIssuer == "" {
		return
	}
	sc.OIDC = sso.New(sso.Config{Issuer: c.OIDCIssuer, ClientID: c.OIDCClientID, ClientSecret: c.OIDCClientSecret,
		GroupsClaim: c.OIDCGroupsClaim, AdminGroup: c.OIDCAdminGroup}, now)
	sc.OIDCName = c.OIDCName
	sc.OIDCAccounts, _ = sso.ParseAccounts(c.OIDCAccounts)
}
