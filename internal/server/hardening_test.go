package server

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// JSON endpoints sent a form (curl -d) answer 415 saying what to send, not a decoding error
// about an empty body.
func TestJSONEndpointsRefuseAForm(t *testing.T) {
	e, _ := editableEnv(t)
	admin := e.signedIn("ada", store.RoleAdmin)
	for _, path := range []string{"/api/sim", "/api/cards"} {
		resp, err := admin.Post(e.ts.URL+path, "application/x-www-form-urlencoded", strings.NewReader(`{"kind":"consumer"}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body := string(b)
		if resp.StatusCode != http.StatusUnsupportedMediaType || !strings.Contains(body, "application/json") {
			t.Errorf("%s with a form: %d %s", path, resp.StatusCode, body)
		}
	}
}

// Every signed-in page says no cache may keep it.
func TestSignedInPagesAreNotStored(t *testing.T) {
	e, _ := editableEnv(t)
	c := e.signedIn("ada", store.RoleAdmin)
	for _, path := range []string{"/", "/account", "/admin", "/study"} {
		resp, _ := e.get(c, path)
		if got := resp.Header.Get("Cache-Control"); got != "private, no-store" {
			t.Errorf("%s: Cache-Control %q", path, got)
		}
	}
}

// The recording delete form's next= goes through the one check of where a form may send the
// browser: a tab (which browsers drop, making "/\t/evil.example" mean //evil.example) is refused.
func TestRecordingDeleteNextStaysOnSite(t *testing.T) {
	t.Parallel()
	e, c, _ := studyEnv(t, "a:x:one")
	status, out := e.upload(c, "card=one&mode=study&depth=solid&spoken_ms=3000&wall_ms=4000", tinyWAV(4000))
	if status != http.StatusCreated {
		t.Fatalf("upload: %d %v", status, out)
	}
	resp, _ := e.post(c, out["url"].(string)+"/delete", url.Values{"next": {"/\t/evil.example"}})
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || strings.ContainsAny(loc, "\t") || strings.Contains(loc, "evil") {
		t.Errorf("delete with a tab in next: %d %q", resp.StatusCode, loc)
	}
}

// Checks of the current password (changing it, creating a token) are throttled as logins are:
// a stolen session cannot guess the password at speed.
func TestCurrentPasswordChecksThrottled(t *testing.T) {
	e, _ := editableEnv(t)
	c := e.signedIn("ada", store.RoleMember)
	var last int
	for i := range auth.LoginFailsPerPair + 1 {
		form := url.Values{"current": {"guess " + string(rune('a'+i))}, "password": {"a new long passphrase"}, "password2": {"a new long passphrase"}}
		if i%2 == 1 {
			form = url.Values{"name": {"ci"}, "password": {"guess " + string(rune('a'+i))}}
		}
		path := "/account/password"
		if i%2 == 1 {
			path = "/account/tokens"
		}
		resp, _ := e.post(c, path, form)
		last = resp.StatusCode
		if i < auth.LoginFailsPerPair && last != http.StatusUnprocessableEntity {
			t.Fatalf("guess %d: %d, want 422", i+1, last)
		}
	}
	if last != http.StatusTooManyRequests {
		t.Errorf("guess %d: %d, want 429", auth.LoginFailsPerPair+1, last)
	}
}
