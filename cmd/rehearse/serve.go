package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"syscall"
	"time"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/auth"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/hear"
	"github.com/rehearse/rehearse/internal/importer"
	"github.com/rehearse/rehearse/internal/server"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/transcribe"
	"github.com/rehearse/rehearse/web"
)

// cmdServe runs the web app until ctx is cancelled (SIGINT/SIGTERM), then drains requests.
// SIGHUP reloads a --content deck.
func cmdServe(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	fl, finish := configFlags("serve", getenv, io.err)
	fl.Usage = func() { // `rehearse -h` lands here: list the commands, then serve's flags
		fmt.Fprint(io.err, usage+"\nflags of serve:\n")
		fl.PrintDefaults()
	}
	if _, err := parseInterspersed(fl, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return exitError{2}
	}
	cfg, err := finish()
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	// The server serves no heap profile, so it keeps no allocation samples (their bucket table
	// and stacks would be resident memory for nothing).
	runtime.MemProfileRate = 0
	log := cfg.logger(io.err)
	start := time.Now()

	unlock, err := lockDataDir(cfg.DataDir)
	if err != nil {
		return err
	}
	defer unlock()
	db, err := openChecked(ctx, cfg.dbPath(), log)
	if err != nil {
		return err
	}
	defer db.Close()
	// A parse cache written by an older version is of no use now (cards render on first view).
	_ = os.Remove(filepath.Join(cfg.DataDir, "deck-cache.bin"))
	// Loading allocates about three times what the deck keeps: collect less often meanwhile.
	gc := debug.SetGCPercent(400)
	decks, err := newDeckHolder(ctx, cfg.Content, db, log)
	debug.SetGCPercent(gc)
	if err != nil {
		return err
	}
	topics, err := deckTopics(cfg.Content)
	if err != nil {
		return err
	}
	assets, err := web.NewAssets(map[string][]byte{"highlight.css": []byte(deck.HighlightCSS())})
	if err != nil {
		return err
	}
	voice := newVoice(cfg, db, decks, log)
	voice.Start(ctx)
	defer voice.Close()
	scfg := server.Config{
		SecureCookies: cfg.secureCookies(), Private: cfg.Private, SessionTTL: cfg.SessionTTL, BaseURL: cfg.BaseURL,
		TrustedProxies: cfg.TrustedProxies, MetricsElsewhere: cfg.MetricsAddr != "", ContentDir: cfg.Content,
		ImportTopics: topics, Voice: voice, RecordingQuota: cmp.Or(cfg.QuotaBytes, -1),
	}
	cfg.signIn(&scfg, time.Now) // config_sso.go
	srv := server.New(scfg, db, decks, assets, log, nil)

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	// Work that is not needed to answer runs once the first response is out, so it does not
	// hold that response up: loading allocates several times what the deck keeps (parse trees,
	// simulation runs), handed back here rather than carried as resident memory until the
	// scavenger gets to it, and the collection that does it measures what the deck keeps, which
	// the memory limit is set from; then the highlighter is readied for the deck's languages.
	handler := afterFirstResponse(srv.Handler(), idleWarmUp, func() {
		debug.FreeOSMemory()
		setMemoryLimit(getenv)
		decks.Deck().WarmUp()
	})
	servers := []*http.Server{newHTTPServer(handler, log)}
	listeners := []net.Listener{ln}
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("metrics listener: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", srv.MetricsHandler())
		servers = append(servers, newHTTPServer(mux, log))
		listeners = append(listeners, mln)
		log.Info("metrics are served", "url", "http://"+mln.Addr().String()+"/metrics")
	}
	url := "http://" + ln.Addr().String()
	log.Info("rehearse is listening", "url", url, "cards", decks.Deck().Len(), "content", decks.Status().Source,
		"db", cfg.dbPath(), "startup", time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(io.out, "Rehearse is running at %s\n", url)

	stopHUP := reloadOnSIGHUP(decks, cfg.Content, log)
	defer stopHUP()
	go purgeSessions(ctx, db, log)

	errc := make(chan error, len(servers))
	for i, hs := range servers {
		go func() { errc <- hs.Serve(listeners[i]) }()
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errs []error
	for _, hs := range servers {
		if err := hs.Shutdown(sctx); err != nil {
			errs = append(errs, fmt.Errorf("shutdown: %w", err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	log.Info("stopped")
	return nil
}

// idleWarmUp is how long after listening afterFirstResponse's work waits for a first request.
const idleWarmUp = 2 * time.Second

// afterFirstResponse serves with h and runs work once, in a goroutine of its own, when the first
// response has been written or idle has passed with no request, whichever comes first.
func afterFirstResponse(h http.Handler, idle time.Duration, work func()) http.Handler {
	first := make(chan struct{})
	var once sync.Once
	go func() {
		select {
		case <-first:
		case <-time.After(idle):
		}
		work()
	}()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		once.Do(func() { close(first) })
	})
}

func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// reloadOnSIGHUP reloads the deck on every SIGHUP until the returned stop is called. A deck
// with errors is not swapped in; each error is logged with its file and line.
func reloadOnSIGHUP(decks *deckload.Holder, dir string, log *slog.Logger) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-hup:
			}
			err := decks.Reload()
			var list deck.ErrorList
			switch {
			case err == nil:
				log.Info("deck reloaded (SIGHUP)", "cards", decks.Deck().Len(), "content", dir)
			case errors.Is(err, deckload.ErrNotReloadable):
				log.Warn("SIGHUP: " + err.Error())
			case errors.As(err, &list):
				log.Error("deck reload failed; the running deck stays", "errors", len(list))
				for _, e := range list {
					log.Error("deck error", "file", filepath.Join(dir, filepath.FromSlash(e.File)), "line", e.Line, "msg", e.Msg)
				}
			default:
				log.Error("deck reload failed; the running deck stays", "err", err)
			}
		}
	}()
	return func() { signal.Stop(hup); close(done) }
}

// purgeSessions deletes expired sessions hourly until ctx ends (expired ones are already
// refused, this only keeps the table small), and short links unused for store.SimShareTTL.
func purgeSessions(ctx context.Context, db *store.DB, log *slog.Logger) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if n, err := db.PurgeExpiredSessions(ctx, time.Now()); err != nil && ctx.Err() == nil {
			log.Warn("purging expired sessions", "err", err)
		} else if n > 0 {
			log.Info("expired sessions purged", "count", n)
		}
		if n, err := db.PurgeUnusedSimShares(ctx, time.Now()); err != nil && ctx.Err() == nil {
			log.Warn("purging unused short links", "err", err)
		} else if n > 0 {
			log.Info("unused short links purged", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// newDeckHolder loads the deck from dir (or the embedded one when dir is empty) with the cards
// stored in the app laid over it, into a holder that saves in the app, the admin page and
// SIGHUP reload. Each card's HTML renders on its first view (deckload.Load).
func newDeckHolder(ctx context.Context, dir string, db *store.DB, log *slog.Logger) (*deckload.Holder, error) {
	base, source := fs.FS(content.FS), "embedded"
	if dir != "" {
		base, source = osDirFS(dir), dir
	}
	stored := func() (map[string][]byte, error) {
		cards, err := db.DeckCards(ctx)
		if err != nil {
			return nil, err
		}
		m := make(map[string][]byte, len(cards))
		for _, c := range cards {
			m[c.Path] = []byte(c.Markdown)
		}
		return m, nil
	}
	load := deckload.Layered(base, stored, func(f fs.FS) (*deck.Deck, error) { return deckload.Load(f, false) })
	l, err := load()
	if err != nil {
		return nil, fmt.Errorf("load deck from %s:\n%w", source, err)
	}
	for _, e := range l.Skipped {
		log.Warn("a card stored in the app was left out; edit or delete it", "file", e.File, "line", e.Line, "msg", e.Msg)
	}
	return deckload.NewHolder(l, source, load), nil
}

// deckTopics reads the import topic rules of the deck in dir, or the embedded deck's when dir
// is empty or has none.
func deckTopics(dir string) (importer.Topics, error) {
	if dir != "" {
		p := filepath.Join(dir, topicsFileName)
		if _, err := os.Stat(p); err == nil {
			return importTopics(p)
		}
	}
	return importTopics("")
}

// openChecked opens the database and runs PRAGMA quick_check, refusing a damaged file with a
// message that says what to do rather than serving from it until the first write fails.
func openChecked(ctx context.Context, path string, log *slog.Logger) (*store.DB, error) {
	db, err := store.Open(ctx, path, log)
	if err == nil {
		if err = db.QuickCheck(ctx); err != nil {
			db.Close()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the database %s is damaged or unreadable, so the server will not start: %w\n"+
			"Restore it from a backup (rehearse backup makes one), or move it aside to start empty", path, err)
	}
	return db, nil
}

// The Go runtime's soft memory limit, unless GOMEMLIMIT says otherwise, is memoryPerLive times
// the heap live once the deck is loaded, and at least minMemoryLimit. With a limit the
// collector and scavenger hand freed memory back before the process grows past it, instead
// of letting the heap double after each burst (argon2's 64 MiB per login check, a big
// simulation, a crowd of large pages); scaling it with the deck keeps a large deck from
// running the collector without pause.
const (
	minMemoryLimit = 100 << 20
	memoryPerLive  = 3
)

func setMemoryLimit(getenv func(string) string) {
	if getenv("GOMEMLIMIT") != "" {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	limit := int64(minMemoryLimit)
	if live[0].Value.Kind() == metrics.KindUint64 {
		limit = max(limit, memoryPerLive*int64(live[0].Value.Uint64()))
	}
	// Plus the block of the one password check the server runs at a time, so that block stays
	// in the heap between checks rather than being handed back and faulted in again.
	debug.SetMemoryLimit(limit + int64(auth.Production.MemoryKiB)<<10)
}

// newVoice builds the background checker of recordings: the transcription endpoint when one is
// configured, else pocketsphinx when installed; nil (recordings kept, not checked) otherwise.
func newVoice(cfg config, db *store.DB, decks *deckload.Holder, log *slog.Logger) *hear.Worker {
	wc := hear.WorkerConfig{Store: db, Deck: decks.Deck, Log: log}
	if cfg.Transcribe != "" {
		wc.Remote = &transcribe.Client{URL: cfg.Transcribe, HTTP: &http.Client{}}
		log.Info("recordings are transcribed by an endpoint", "url", cfg.Transcribe)
	} else if r, err := hear.Find(); err == nil {
		wc.Recognizer = &r
		log.Info("recordings are checked offline with pocketsphinx")
	} else {
		log.Warn("recordings are kept but not checked; to check them offline: " + hear.Install)
	}
	return hear.NewWorker(wc)
}
