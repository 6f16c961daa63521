package server

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/store"
)

// TestLogsCarryNoSecrets: passwords, one-time tokens and session cookies never reach the log,
// whatever the outcome of the request.
func TestLogsCarryNoSecrets(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	e := newEnv(t, Config{})
	e.srv.log = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	admin := e.signedIn("ada", store.RoleAdmin)
	e.signedIn("bob", store.RoleMember)
	bob, _ := e.db.UserByName(context.Background(), "bob")

	path := e.createLink(admin, fmt.Sprintf("/admin/users/%d/reset", bob.ID), nil, e.ts.URL)
	token := strings.TrimPrefix(path, "/reset/")
	anon := e.client()
	e.post(anon, path, url.Values{"password": {"s3cret-but-short"}, "password2": {"mismatch-secret"}})
	e.post(anon, path, url.Values{"password": {"s3cret-reset-pw"}, "password2": {"s3cret-reset-pw"}})
	e.get(anon, path) // used: 404
	e.post(e.client(), "/login", url.Values{"username": {"bob"}, "password": {"wrong-s3cret"}})
	e.get(e.client(), "/invite/"+token+"x") // unknown invite

	u, _ := url.Parse(e.ts.URL)
	var cookies []string
	for _, c := range append(admin.Jar.Cookies(u), anon.Jar.Cookies(u)...) {
		cookies = append(cookies, c.Value)
	}
	out := logs.String()
	for _, secret := range append([]string{token, "s3cret", "mismatch-secret", "not a real password"}, cookies...) {
		if secret != "" && strings.Contains(out, secret) {
			t.Errorf("log contains a secret %q", secret)
		}
	}
	if !strings.Contains(out, `"path":"/reset/REDACTED"`) || !strings.Contains(out, `"route":"/reset/{token}"`) {
		t.Fatalf("reset requests not logged with a redacted path:\n%s", out)
	}
	if resp, _ := e.get(anon, "/account"); resp.StatusCode != http.StatusOK {
		t.Fatalf("not signed in after the reset: %d", resp.StatusCode)
	}
}
