package main

import (
	"io"
	"strings"
	"testing"
)

func TestConfigSignIn(t *testing.T) {
	cfg, _, err := parseConfig("serve", []string{"--oidc-issuer", "https://sso.example.com/realms/acme", "--password-login=false"},
		env(map[string]string{"REHEARSE_OIDC_CLIENT_ID": "rehearse", "REHEARSE_OIDC_CLIENT_SECRET": "s3cret"}), io.Discard)
	if err != nil || cfg.PasswordLogin || cfg.OIDCClientSecret != "s3cret" || cfg.OIDCAccounts != "create" {
		t.Fatalf("config %+v, %v", cfg, err)
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--oidc-issuer", "sso.example.com", "--oidc-client-id", "x"}, "oidc-issuer"},
		{[]string{"--oidc-issuer", "https://sso.example.com"}, "oidc-client-id"},
		{[]string{"--oidc-issuer", "https://sso.example.com", "--oidc-client-id", "x", "--oidc-accounts", "maybe"}, "oidc-accounts"},
		{[]string{"--auth-proxy-header", "Remote-User"}, "auth-proxy-header"}, // no trusted proxies
		{[]string{"--auth-proxy-email-header", "Remote-Email"}, "auth-proxy-email-header"},
		{[]string{"--password-login=false"}, "password-login"}, // nobody could sign in
	} {
		if _, _, err := parseConfig("serve", c.args, env(nil), io.Discard); err == nil || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%v: err = %v, want one naming -%s", c.args, err, c.flag)
		}
	}
}
