package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
	"github.com/rehearse/rehearse/web"
)

// Fuzz targets for the form decoders. The pure ones are called directly; forms parsed inline in
// a handler are fuzzed through the handler, as a signed-in member.

// FuzzSignupFields: a user name that passes is short, valid UTF-8, and free of markup and
// spaces; the login redirect never leaves the site, whatever a browser strips from it.
func FuzzSignupFields(f *testing.F) {
	f.Add("ada", "/study?topic=x")
	f.Add("<script>", "//evil.example")
	f.Add("caf\xe9", "/\\evil.example")
	f.Add("a b", "/\t/evil.example")
	f.Fuzz(func(t *testing.T, name, next string) {
		if store.ValidateUsername(name) == "" {
			if name == "" || len(name) > 64 || !utf8.ValidString(name) || strings.ContainsAny(name, "<>\"'&/ \t\r\n\x00") {
				t.Fatalf("accepted user name %q", name)
			}
		}
		got := safeNext(next)
		// Browsers drop tabs and newlines from URLs and read a backslash as a slash.
		seen := strings.ReplaceAll(strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, got), `\`, "/")
		if !strings.HasPrefix(seen, "/") || strings.HasPrefix(seen, "//") {
			t.Fatalf("safeNext(%q) = %q: leaves the site", next, got)
		}
	})
}

// FuzzFormRoutes posts an arbitrary body to each form route as a signed-in member: never a 5xx,
// never the script echoed.
func FuzzFormRoutes(f *testing.F) {
	routes := []string{"/study/answer", "/study/undo", "/settings", "/mock", "/account/team", "/account/password", "/logout"}
	e, token := newFuzzEnv(f)
	f.Add(uint8(0), "card=sample-eager&rating=3&reps=0&shown_at=-1")
	f.Add(uint8(2), "retention=0.9&new_per_day=20&depth=basics&timezone=Europe%2FBerlin")
	f.Add(uint8(3), "n=5&depth=basics&clock=strict&timer=30&seed=team&topic=test-topic&tag=x&followups=1&record=0")
	f.Add(uint8(3), "n=%2D1&seed=%3Cscript%3E&topic=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
	f.Add(uint8(4), "hide=on")
	f.Add(uint8(5), "current=x&password=%FF%FE&password2=%FF%FE")
	f.Fuzz(func(t *testing.T, route uint8, body string) {
		path := routes[int(route)%len(routes)]
		rec := serve(e, http.MethodPost, path, "application/x-www-form-urlencoded", "", strings.NewReader(body), token(t))
		if rec.Code >= 500 {
			t.Fatalf("POST %s %q: status %d", path, body, rec.Code)
		}
		if strings.Contains(rec.Body.String(), "<script>alert") {
			t.Fatalf("POST %s %q echoes a script", path, body)
		}
	})
}

// newFuzzEnv is newEnv for a fuzz target: one server and member for every input. token returns
// a fresh session each time, since some routes end it.
func newFuzzEnv(f *testing.F) (*testEnv, func(testing.TB) string) {
	db := storetest.Open(f)
	d, err := deck.Load(os.DirFS("testdata/deck"), deck.Options{})
	if err != nil {
		f.Fatal(err)
	}
	assets, err := web.NewAssets(map[string][]byte{"highlight.css": []byte(deck.HighlightCSS())})
	if err != nil {
		f.Fatal(err)
	}
	e := &testEnv{db: db, now: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)}
	e.srv = New(Config{Hasher: testHasher}, db, StaticDeck{d}, assets, slog.New(slog.NewTextHandler(io.Discard, nil)), func() time.Time { return e.now })
	u, err := db.CreateUser(context.Background(), "fuzz", dummyHash, store.RoleMember, e.now)
	if err != nil {
		f.Fatal(err)
	}
	token := func(t testing.TB) string {
		tok, digest := auth.NewToken()
		if err := db.CreateSession(context.Background(), digest, u.ID, e.now, e.now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		return tok
	}
	return e, token
}
