package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
	"github.com/rehearse/rehearse/web"
)

// benchCard is a real card with a two-variant simulation, like most of the bundled deck.
const benchCard = "connect-eager-rebalancing"

// benchEnv is the app over the bundled deck, called in-process (no sockets), and one signed-in
// user's cookie. bench/run.sh compares the real server with nginx on the same bytes.
type benchEnv struct {
	h      http.Handler
	srv    *Server
	cookie *http.Cookie
}

func newBenchEnv(tb testing.TB) benchEnv {
	tb.Helper()
	db := storetest.Open(tb)
	d, err := deck.Load(content.FS, deck.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	assets, err := web.NewAssets(map[string][]byte{"highlight.css": []byte(deck.HighlightCSS())})
	if err != nil {
		tb.Fatal(err)
	}
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	srv := New(Config{}, db, StaticDeck{d}, assets, slog.New(slog.NewTextHandler(io.Discard, nil)), func() time.Time { return now })
	h := srv.Handler()
	u, err := db.CreateUser(context.Background(), "sam", dummyHash, store.RoleMember, now)
	if err != nil {
		tb.Fatal(err)
	}
	token, digest := auth.NewToken()
	if err := db.CreateSession(context.Background(), digest, u.ID, now, now.Add(time.Hour)); err != nil {
		tb.Fatal(err)
	}
	return benchEnv{h: h, srv: srv, cookie: &http.Cookie{Name: sessionCookie, Value: token}}
}

func (e benchEnv) get(path string, signedIn bool) *httptest.ResponseRecorder {
	return e.getEncoded(path, signedIn, "")
}

// getEncoded is get with an Accept-Encoding header ("" sends none).
func (e benchEnv) getEncoded(path string, signedIn bool, accept string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if accept != "" {
		req.Header.Set("Accept-Encoding", accept)
	}
	if signedIn {
		req.AddCookie(e.cookie)
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec
}

// benchGet measures one path served in-process, bytes per op reported as the page size.
func benchGet(b *testing.B, path string, signedIn bool, accept string) {
	e := newBenchEnv(b)
	first := e.getEncoded(path, signedIn, accept)
	if first.Code != http.StatusOK {
		b.Fatalf("%s: %d", path, first.Code)
	}
	b.SetBytes(int64(first.Body.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if rec := e.getEncoded(path, signedIn, accept); rec.Code != http.StatusOK {
			b.Fatalf("%s: %d", path, rec.Code)
		}
	}
}

func BenchmarkCardPage(b *testing.B) {
	for _, enc := range []string{"", "gzip"} {
		b.Run("anonymous/"+enc, func(b *testing.B) { benchGet(b, "/cards/"+benchCard, false, enc) })
		b.Run("signed-in/"+enc, func(b *testing.B) { benchGet(b, "/cards/"+benchCard, true, enc) })
		b.Run("study/"+enc, func(b *testing.B) { benchGet(b, "/study", true, enc) })
	}
}
