package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/store"
)

// access is who may use a route.
type access int

const (
	open   access = iota // everyone, even anonymous visitors in private mode
	public               // everyone, but anonymous visitors must log in first in private mode
	user                 // any signed-in user
	admin                // admins only
)

var accessNames = [...]string{"open", "public", "user", "admin"}

// routeAccess is the explicit table: method + pattern → access. Routes not listed here fall to
// accessByPrefix; a route matching neither fails the test, so no new route goes unclassified.
var routeAccess = map[string]access{
	"GET /":                public,
	"GET /topics/{slug}":   public,
	"GET /cards/{id}":      public,
	"GET /search":          public,
	"GET /login":           open,
	"POST /login":          open,
	"POST /logout":         public, // a no-op when anonymous; gated like any page in private mode
	"GET /setup":           open,
	"POST /setup":          open,
	"GET /healthz":         open,
	"GET /readyz":          open,
	"GET /static/*":        open,
	"GET /invite/{token}":  open,
	"POST /invite/{token}": open,
	"GET /reset/{token}":   open,
	"POST /reset/{token}":  open,
	"GET /team":            user,
	"GET /metrics":         admin,
	"GET /import":          admin, // a redirect to /admin/import
	// The card editor: admins, and members once an admin allows it (off by default).
	"GET /cards/new":           admin,
	"POST /cards/new":          admin,
	"GET /cards/{id}/edit":     admin,
	"POST /cards/{id}/edit":    admin,
	"POST /cards/{id}/restore": admin,
	"POST /cards/{id}/revert":  admin,
	"POST /editor/preview":     admin,
	"GET /cards/{id}/history":  user,
	"POST /cards/{id}/suspend": user,
	"GET /media/{file}":        public,
	"GET /api/cards":           user,
	"POST /api/cards":          admin,
	"GET /api/cards/{id}":      user,
	"PUT /api/cards/{id}":      admin,
	"DELETE /api/cards/{id}":   admin,
}

// accessByPrefix classifies whole feature areas so features can add routes under them.
var accessByPrefix = []struct {
	prefix string
	access access
}{
	{"/admin", admin},
	{"/account", user},
	{"/study", user},
	{"/settings", user},
	{"/stats", user},
	{"/mock", user},
	{"/pair", user},       // and only the session's two people: pair_test.go
	{"/recordings", user}, // and only the owner's: recording_test.go
	{"/api/sim", public},
	{"/sim", public},
}

func classify(method, pattern string) (access, bool) {
	if a, ok := routeAccess[method+" "+pattern]; ok {
		return a, true
	}
	for _, p := range accessByPrefix {
		if pattern == p.prefix || strings.HasPrefix(pattern, p.prefix+"/") || strings.HasPrefix(pattern, p.prefix+"?") {
			return p.access, true
		}
	}
	return 0, false
}

// exactStatus pins routes whose answer does not depend on the role: one-time links with an
// unknown token are 404 for everyone; setup is closed once users exist; empty credentials fail.
var exactStatus = map[string]int{
	"GET /invite/{token}":  http.StatusNotFound,
	"POST /invite/{token}": http.StatusNotFound,
	"GET /reset/{token}":   http.StatusNotFound,
	"POST /reset/{token}":  http.StatusNotFound,
	"GET /setup":           http.StatusSeeOther,            // closed once users exist: sent to /login
	"POST /setup":          http.StatusUnprocessableEntity, // an empty form; with valid fields, 409
	"POST /login":          http.StatusUnauthorized,
}

// endsAtLogin lists routes whose success is a redirect to the login page (the session is over).
var endsAtLogin = map[string]bool{"POST /account/sessions": true}

// samplePath fills a pattern's parameters with values that exist where it matters.
func samplePath(s *Server, pattern string) string {
	if pattern == "/static/*" {
		return s.assets.URL("app.css")
	}
	p := strings.NewReplacer("{slug}", "test-topic", "{token}", "not-a-real-token").Replace(pattern)
	if strings.HasPrefix(p, "/cards/") {
		p = strings.Replace(p, "{id}", "sample-eager", 1)
	}
	// Any other parameter: a number that names nothing (so no admin action touches a real user).
	for strings.Contains(p, "{") {
		i, j := strings.Index(p, "{"), strings.Index(p, "}")
		p = p[:i] + "999999" + p[j+1:]
	}
	return strings.ReplaceAll(p, "*", "x")
}

type role struct {
	name  string
	token string // session cookie value ("" for anonymous)
}

// TestAuthorizationMatrix sends every route of the router × {anonymous, member, admin} ×
// {normal, private} and checks who gets in.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	for _, private := range []bool{false, true} {
		e := newEnv(t, Config{Private: private})
		ctx := context.Background()
		roles := []role{{name: "anonymous"}}
		for _, r := range []struct{ name, role string }{{"member", store.RoleMember}, {"admin", store.RoleAdmin}} {
			u, err := e.db.CreateUser(ctx, r.name, dummyHash, r.role, e.now)
			if err != nil {
				t.Fatal(err)
			}
			roles = append(roles, role{name: r.name, token: sessionFor(t, e, u.ID)})
		}
		var routes []string
		err := chi.Walk(e.srv.router(), func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
			routes = append(routes, method+" "+pattern)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(routes)
		if len(routes) < 15 {
			t.Fatalf("only %d routes walked: %v", len(routes), routes)
		}
		t.Logf("private=%v: %d routes × %d roles", private, len(routes), len(roles))
		for _, rt := range routes {
			method, pattern, _ := strings.Cut(rt, " ")
			if pattern == "/static/*" && method != http.MethodGet {
				continue // the asset handler answers every method; only GET matters
			}
			acc, ok := classify(method, pattern)
			if !ok {
				t.Errorf("%s is not classified: add it to routeAccess or accessByPrefix in authz_test.go", rt)
				continue
			}
			for _, ro := range roles {
				// Each request gets a fresh session, so one that ends sessions cannot disturb the next.
				if ro.token != "" {
					u, _ := e.db.UserByName(ctx, ro.name)
					ro.token = sessionFor(t, e, u.ID)
				}
				status, loc := do(e, method, samplePath(e.srv, pattern), ro.token)
				checkAccess(t, rt, private, ro.name, acc, status, loc)
			}
		}
	}
}

func sessionFor(t *testing.T, e *testEnv, userID int64) string {
	t.Helper()
	token, digest := auth.NewToken()
	if err := e.db.CreateSession(context.Background(), digest, userID, e.now, e.now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	return token
}

func do(e *testEnv, method, path, token string) (int, string) {
	req := httptest.NewRequest(method, path, strings.NewReader(""))
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if token != "" {
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: token})
	}
	rec := httptest.NewRecorder()
	e.srv.Handler().ServeHTTP(rec, req)
	return rec.Code, rec.Header().Get("Location")
}

func checkAccess(t *testing.T, rt string, private bool, who string, acc access, status int, loc string) {
	t.Helper()
	mode := "normal"
	if private {
		mode = "private"
	}
	sentToLogin := status == http.StatusUnauthorized || (status == http.StatusSeeOther && strings.HasPrefix(loc, "/login"))
	want := "allowed"
	switch {
	case who == "anonymous" && (acc == user || acc == admin || (acc == public && private)):
		want = "login"
	case who == "member" && acc == admin:
		want = "forbidden"
	}
	if st, ok := exactStatus[rt]; ok {
		if status != st {
			t.Errorf("%s [%s, %s, %s]: status %d, want %d", rt, mode, who, accessNames[acc], status, st)
		}
		return
	}
	var good bool
	switch want {
	case "login":
		good = sentToLogin
	case "forbidden":
		good = status == http.StatusForbidden
	default:
		if endsAtLogin[rt] && status == http.StatusSeeOther && loc == "/login" {
			sentToLogin = false
		}
		good = !sentToLogin && status != http.StatusForbidden && status < 500
	}
	if !good {
		t.Errorf("%s [%s, %s, %s]: status %d (Location %q), want %s", rt, mode, who, accessNames[acc], status, loc, want)
	}
}

// TestAuthorizationTableRefusesUnknownRoutes: a route outside every known area is not silently
// treated as public.
func TestAuthorizationTableRefusesUnknownRoutes(t *testing.T) {
	t.Parallel()
	for _, rt := range [][2]string{{"GET", "/export"}, {"POST", "/administrator"}, {"GET", "/simulate-nothing"}} {
		if a, ok := classify(rt[0], rt[1]); ok {
			t.Errorf("%s %s classified as %s", rt[0], rt[1], accessNames[a])
		}
	}
	if a, ok := classify("POST", "/admin/users/{id}/disable"); !ok || a != admin {
		t.Error("admin prefix rule broken")
	}
}
