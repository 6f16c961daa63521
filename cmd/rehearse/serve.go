package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/server"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/web"
)

// cmdServe runs the web app until ctx is cancelled (SIGINT/SIGTERM), then drains requests.
func cmdServe(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	cfg, _, err := parseConfig("serve", args, getenv, io.err)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	log := cfg.logger(io.err)
	start := time.Now()

	decks, err := newDeckHolder(cfg.Content)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, cfg.dbPath(), log)
	if err != nil {
		return err
	}
	defer db.Close()
	assets, err := web.NewAssets(map[string][]byte{"highlight.css": []byte(deck.HighlightCSS())})
	if err != nil {
		return err
	}
	srv := server.New(server.Config{
		SecureCookies: cfg.secureCookies(), Private: cfg.Private, SessionTTL: cfg.SessionTTL, BaseURL: cfg.BaseURL,
	}, db, decks, assets, log, nil)

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	url := "http://" + ln.Addr().String()
	log.Info("rehearse is listening", "url", url, "cards", decks.Deck().Len(), "content", decks.source,
		"db", cfg.dbPath(), "startup", time.Since(start).Round(time.Millisecond))
	fmt.Fprintf(io.out, "Rehearse is running at %s\n", url)

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// deckHolder holds the current deck and where it came from.
type deckHolder struct {
	d      *deck.Deck
	fsys   fs.FS
	source string
}

func newDeckHolder(dir string) (*deckHolder, error) {
	h := &deckHolder{fsys: content.FS, source: "embedded"}
	if dir != "" {
		h.fsys, h.source = osDirFS(dir), dir
	}
	d, err := loadDeck(h.fsys)
	if err != nil {
		return nil, fmt.Errorf("load deck from %s:\n%w", h.source, err)
	}
	h.d = d
	return h, nil
}

func (h *deckHolder) Deck() *deck.Deck { return h.d }
