// Package server is Rehearse's HTTP adapter: the chi router, middleware, sessions and one file
// per resource. Handlers are thin: parse input, call the domain or store, render a view.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/a-h/templ"

	"github.com/rehearse/rehearse/internal/anki"
	"github.com/rehearse/rehearse/internal/appmetrics"
	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/cardwrite"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/hear"
	"github.com/rehearse/rehearse/internal/importer"
	"github.com/rehearse/rehearse/internal/pair"
	"github.com/rehearse/rehearse/internal/simform"
	"github.com/rehearse/rehearse/internal/sso"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
	"github.com/rehearse/rehearse/web"
)

// Config is what the server needs from the command line.
type Config struct {
	SecureCookies bool          // set the Secure flag (https, or behind a TLS proxy)
	Private       bool          // nothing but the login page without a session
	SessionTTL    time.Duration // how long a login lasts
	BaseURL       string        // external URL, for links in invites and resets

	TrustedProxies   []netip.Prefix  // reverse proxies whose X-Forwarded-For/Proto are believed (proxy.go)
	MetricsElsewhere bool            // metrics have their own listener, so /metrics is not routed here
	ContentDir       string          // the --content directory ("" when the deck is embedded); imports are saved here
	ImportTopics     importer.Topics // keyword rules guessing an imported card's topic

	// Voice checks recordings in the background (hear.Worker, started by the caller); nil:
	// recordings are kept but not checked, and pages say what to install.
	Voice *hear.Worker
	// RecordingQuota is the audio each user may keep, in bytes; 0: DefaultRecordingQuota,
	// negative: no limit.
	RecordingQuota int64

	// Sign-in from outside: an OpenID Connect provider (nil: none; sso.go) with the name its
	// button shows and what a first sign-in does, and a trusted login proxy's headers
	// (authproxy.go). NoPasswords turns local passwords off.
	OIDC                 *sso.Client
	OIDCName             string
	OIDCAccounts         sso.Accounts
	AuthProxyHeader      string
	AuthProxyEmailHeader string
	NoPasswords          bool

	// Hasher hashes and checks passwords; nil means production argon2id parameters with
	// hashSlots computations at once. Tests pass cheap parameters.
	Hasher *auth.Hasher
}

// At most hashSlots argon2 computations run at once; a login waits up to hashWait for a slot,
// then gets a 503 with Retry-After. One: each computation runs on two threads, so two cores are
// busy with one, and its 64 MiB block stays within the memory limit beside the app's heap, so
// the next check reuses it (two blocks would not fit, and each check would fault in fresh
// memory, about ten times the hash's own cost here). The serve command's memory limit leaves
// room for one block: more slots need more room there.
const (
	hashSlots = 1
	hashWait  = 2 * time.Second
)

// DeckSource hands out the current deck; reloading swaps it atomically.
type DeckSource interface {
	Deck() *deck.Deck
}

// StaticDeck is a DeckSource that never changes (tests, or a deck with no reload).
type StaticDeck struct{ D *deck.Deck }

// Deck returns the deck.
func (s StaticDeck) Deck() *deck.Deck { return s.D }

// Server holds the dependencies shared by every handler.
type Server struct {
	cfg    Config
	db     *store.DB
	decks  DeckSource
	log    *slog.Logger
	assets *web.Assets
	now    func() time.Time

	setupDone atomic.Bool // true once any user exists: the setup page closes for good

	hasher  *auth.Hasher
	shares  *windowLimiter      // ratewindow.go: short links made per address
	ready   readyState          // ready.go: the last /readyz probe
	sim     simState            // sim.go
	figures simform.FigureCache // rendered card simulation figures
	cards   *cardwrite.Writer   // cardstore.go: card changes, one at a time, checked against the deck they change
	uploads hear.Uploads        // recording.go: recent uploads per user
	anki    anki.Stages         // Anki imports previewed and waiting for their save
	pairs   *pair.Hub           // pair.go: wakes the open screens of a pair interview

	limiter *auth.LoginLimiter  // failed logins per account and address
	metrics *appmetrics.Metrics // this server's Prometheus series
}

// New builds a server. now may be nil (time.Now).
func New(cfg Config, db *store.DB, decks DeckSource, assets *web.Assets, log *slog.Logger, now func() time.Time) *Server {
	if now == nil {
		now = time.Now
	}
	if cfg.SessionTTL == 0 {
		cfg.SessionTTL = 30 * 24 * time.Hour
	}
	if cfg.Hasher == nil {
		cfg.Hasher = auth.NewHasher(auth.Production, hashSlots, hashWait)
	}
	s := &Server{cfg: cfg, db: db, decks: decks, log: log, assets: assets, now: now,
		hasher: cfg.Hasher, limiter: auth.NewLoginLimiter(), shares: newWindowLimiter(simSharesPerHour, time.Hour), metrics: newMetrics(decks)}
	if cfg.RecordingQuota == 0 {
		s.cfg.RecordingQuota = DefaultRecordingQuota
	}
	s.cards = s.newCardWriter()
	s.initFeatures()
	return s
}

func (s *Server) deck() *deck.Deck { return s.decks.Deck() }

// page builds the layout model for a request.
func (s *Server) page(r *http.Request, title string, scripts ...string) views.Page {
	// Room for the stylesheets and scripts pages add, so those appends do not allocate again.
	css, js := make([]string, 2, 4), make([]string, 1, 1+len(scripts))
	css[0], css[1], js[0] = s.assets.URL("app.css"), s.assets.URL("highlight.css"), s.assets.URL("app.js")
	p := views.Page{Title: title, CSS: css, Scripts: js, Private: s.cfg.Private, ThemeJS: s.assets.URL("theme.js"), Path: r.URL.Path}
	for _, js := range scripts {
		p.Scripts = append(p.Scripts, s.assets.URL(js))
	}
	if u := userFrom(r.Context()); u != nil {
		p.User = &views.UserInfo{Name: u.Username, Admin: u.IsAdmin()}
		p.Theme = u.Theme  // from the session look-up
		if p.Theme == "" { // a user not from a session
			p.Theme = s.userTheme(r, u.ID) // theme.go
		}
	}
	return p
}

// readCtx is the request's context without its cancellation, for a page's short reads: given
// a context that can be cancelled, modernc/sqlite starts a goroutine per statement to interrupt
// it, and these queries take under a millisecond.
func readCtx(r *http.Request) context.Context { return context.WithoutCancel(r.Context()) }

// queryValues is r.URL.Query(), without making a map for a request that has no query.
func queryValues(r *http.Request) url.Values {
	if r.URL.RawQuery == "" {
		return nil
	}
	return r.URL.Query()
}

// formValue is r.FormValue, without parsing (two maps) a request that has neither a query
// nor a body: a plain GET.
func formValue(r *http.Request, key string) string {
	if r.URL.RawQuery == "" && (r.Body == nil || r.Body == http.NoBody) {
		return ""
	}
	return r.FormValue(key)
}

// render writes a component with a status code, buffering so a failed render never sends half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	if err := c.Render(r.Context(), buf); err != nil {
		s.fail(w, r, err)
		return
	}
	writeHTML(w, status, buf.Bytes())
}

func writeHTML(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h["Content-Type"] = htmlTypeValue // shared, as in frame
	// A known length spares the chunked encoding; the compression middleware drops it when it
	// compresses the body.
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	w.Write(b)
}

// usersExist reports whether setup has happened, caching the answer once true.
func (s *Server) usersExist(ctx context.Context) (bool, error) {
	if s.setupDone.Load() {
		return true, nil
	}
	n, err := s.db.CountUsers(ctx)
	if err != nil {
		return false, err
	}
	if n > 0 {
		s.setupDone.Store(true)
	}
	return n > 0, nil
}

// sendToSetup answers with a redirect to the one-time setup page while no account exists (or
// with an error page), and reports whether it answered.
func (s *Server) sendToSetup(w http.ResponseWriter, r *http.Request) bool {
	ok, err := s.usersExist(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return true
	}
	if !ok && s.signsInFromOutside() { // sso.go: the first sign-in from outside sets up
		return false
	}
	if !ok {
		http.Redirect(w, r, "/setup", http.StatusSeeOther)
	}
	return !ok
}
