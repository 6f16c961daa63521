package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/server"
	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/store/storetest"
	"github.com/rehearse/rehearse/web"
)

// startInstance serves an instance whose card files are contentDir, on a real port, and
// returns its URL and the data directory.
func startInstance(t *testing.T, contentDir string) (string, string) {
	t.Helper()
	data := t.TempDir()
	ctx := context.Background()
	storetest.File(t, filepath.Join(data, "rehearse.db"))
	db, err := store.Open(ctx, filepath.Join(data, "rehearse.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	decks, err := newDeckHolder(ctx, contentDir, db, log)
	if err != nil {
		t.Fatal(err)
	}
	assets, err := web.NewAssets(map[string][]byte{"highlight.css": []byte(deck.HighlightCSS())})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{ContentDir: contentDir}, db, decks, assets, log, nil)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	if _, err := db.CreateUser(ctx, "ci", "x", store.RoleAdmin, time.Now()); err != nil {
		t.Fatal(err)
	}
	return ts.URL, data
}

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(t.Context(), args, env(nil), stdio{strings.NewReader(""), &out, &errb})
	return out.String(), errb.String(), err
}

// The bundled deck pushed into an instance with no cards, then pulled back, gives the same files.
func TestDeckPushPullRoundTrip(t *testing.T) {
	url, data := startInstance(t, t.TempDir()) // an empty content directory: no cards at all
	tok, stderr, err := runCmd(t, "token", "create", "ci", "--name", "deck CI", "--data", data)
	if err != nil {
		t.Fatalf("token create: %v %s", err, stderr)
	}
	tok = strings.TrimSpace(tok)

	src := filepath.Join("..", "..", "content")
	want, err := localCards(src)
	if err != nil || len(want) < 10 {
		t.Fatalf("content: %d cards, %v", len(want), err)
	}
	out, stderr, err := runCmd(t, "deck", "push", src, "--url", url, "--token", tok)
	if err != nil {
		t.Fatalf("push: %v\n%s\n%s", err, out, stderr)
	}
	if !strings.Contains(out, "created 03-eager/") || !strings.Contains(out, "0 updated, 0 unchanged, 0 deleted") {
		t.Errorf("push output:\n%s", out)
	}
	// Nothing changed: a second push uploads nothing.
	if out, _, err := runCmd(t, "deck", "push", "--url", url, "--token", tok, src); err != nil || !strings.Contains(out, "0 created, 0 updated") {
		t.Errorf("second push: %v\n%s", err, out)
	}
	dst := t.TempDir()
	if out, stderr, err := runCmd(t, "deck", "pull", "--url", url, "--token", tok, dst); err != nil {
		t.Fatalf("pull: %v %s %s", err, out, stderr)
	}
	got, err := localCards(dst)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("pulled %d cards, pushed %d", len(got), len(want))
	}
	for p, b := range want {
		if !bytes.Equal(got[p], b) {
			t.Errorf("%s differs after the round trip", p)
		}
	}

	// --prune deletes what the directory no longer has; a broken file fails with its line.
	small := t.TempDir()
	os.MkdirAll(filepath.Join(small, "03-eager"), 0o755)
	first := "03-eager/rolling-restart-cost.md"
	os.WriteFile(filepath.Join(small, first), want[first], 0o644)
	broken := strings.Replace(string(want[first]), "## Basics", "## Basix", 1)
	broken = strings.Replace(broken, "id: rolling-restart-cost", "id: broken-copy", 1)
	os.WriteFile(filepath.Join(small, "03-eager", "broken-copy.md"), []byte(broken), 0o644)
	out, stderr, err = runCmd(t, "deck", "push", small, "--url", url, "--token", tok, "--prune")
	basixLine := 1 + strings.Count(broken[:strings.Index(broken, "## Basix")], "\n")
	if err == nil || !strings.Contains(stderr, fmt.Sprintf("03-eager/broken-copy.md:%d: unknown section", basixLine)) || strings.Contains("\n"+out, "\ndeleted ") {
		t.Errorf("broken push: err %v\nout %s\nerr %s", err, out, stderr)
	}
	os.Remove(filepath.Join(small, "03-eager", "broken-copy.md"))
	out, stderr, err = runCmd(t, "deck", "push", small, "--url", url, "--token", tok, "--prune")
	if err != nil || strings.Count("\n"+out, "\ndeleted ") != len(want)-1 {
		t.Errorf("prune push: err %v, %d deleted, want %d\n%s", err, strings.Count("\n"+out, "\ndeleted "), len(want)-1, stderr)
	}
}

func TestDeckAndTokenUsage(t *testing.T) {
	for _, args := range [][]string{{"deck"}, {"deck", "push"}, {"token"}, {"token", "create"}} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	if _, _, err := runCmd(t, "deck", "push", ".", "--url", "ftp://x", "--token", "t"); err == nil || !strings.Contains(err.Error(), "--url") {
		t.Errorf("bad url: %v", err)
	}
	if _, _, err := runCmd(t, "token", "create", "nobody", "--data", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no user") {
		t.Errorf("unknown user: %v", err)
	}
}
