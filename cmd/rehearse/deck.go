package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/editor"
)

const deckUsage = `usage: rehearse deck push DIR --url URL --token TOKEN [--prune]
       rehearse deck pull --url URL --token TOKEN [--all] DIR
  push uploads every card file under DIR that differs from the instance (--prune also deletes
  the cards stored in the app that DIR no longer has); pull writes the cards stored in the app
  (--all: every card the instance serves) into DIR. The token may also be given as
  $REHEARSE_TOKEN.`

// cmdDeck syncs a directory of card files with an instance through its cards API.
func cmdDeck(ctx context.Context, args []string, getenv func(string) string, io stdio) error {
	if len(args) == 0 || (args[0] != "push" && args[0] != "pull") {
		fmt.Fprintln(io.err, deckUsage)
		return exitError{2}
	}
	verb := args[0]
	fl := flag.NewFlagSet("deck "+verb, flag.ContinueOnError)
	fl.SetOutput(io.err)
	fl.Usage = func() { fmt.Fprintln(io.err, deckUsage); fl.PrintDefaults() }
	base := fl.String("url", getenv("REHEARSE_URL"), "the instance's base `URL`, e.g. https://rehearse.example.com ($REHEARSE_URL)")
	token := fl.String("token", "", "an API token from /account or `rehearse token create` ($REHEARSE_TOKEN)")
	prune := fl.Bool("prune", false, "push: delete stored cards that DIR no longer has")
	all := fl.Bool("all", false, "pull: write every card the instance serves, not only those stored in the app")
	pos, err := parseInterspersed(fl, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return exitError{2}
	}
	if *token == "" {
		*token = getenv("REHEARSE_TOKEN")
	}
	u, err := url.Parse(strings.TrimRight(*base, "/"))
	switch {
	case len(pos) != 1:
		fl.Usage()
		return exitError{2}
	case *base == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return fmt.Errorf("deck %s: --url: want the instance's http(s) URL, got %q", verb, *base)
	case *token == "":
		return fmt.Errorf("deck %s: --token (or $REHEARSE_TOKEN) is required", verb)
	}
	c := &apiClient{base: u.String(), token: *token, http: &http.Client{Timeout: 30 * time.Second}}
	if verb == "push" {
		return deckPush(ctx, c, pos[0], *prune, io)
	}
	return deckPull(ctx, c, pos[0], *all, io)
}

// apiClient calls an instance's /api/cards.
type apiClient struct {
	base, token string
	http        *http.Client
}

type remoteCard struct {
	ID       string `json:"id"`
	Path     string `json:"path"`
	Stored   bool   `json:"stored"`
	SHA256   string `json:"sha256"`
	Markdown string `json:"markdown"`
}

type remoteProblem struct {
	Text string `json:"text"`
}

type remoteError struct {
	Error  string          `json:"error"`
	Errors []remoteProblem `json:"errors"`
}

// do sends a request and decodes a JSON answer into out; a non-2xx answer is an error with
// the server's message and every problem it listed.
func (c *apiClient) do(ctx context.Context, method, p string, body []byte, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+p, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "text/markdown; charset=utf-8")
	if method == http.MethodPost { // the batch is JSON; a PUT sends one card's markdown
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode >= 300 {
		var e remoteError
		if json.Unmarshal(b, &e) != nil || e.Error == "" {
			return resp.StatusCode, fmt.Errorf("%s %s: %s", method, p, resp.Status)
		}
		msg := e.Error
		for _, p := range e.Errors {
			msg += "\n  " + p.Text
		}
		return resp.StatusCode, errors.New(msg)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: bad JSON: %w", method, p, err)
		}
	}
	return resp.StatusCode, nil
}

func (c *apiClient) list(ctx context.Context) ([]remoteCard, error) {
	var out struct {
		Cards []remoteCard `json:"cards"`
	}
	_, err := c.do(ctx, http.MethodGet, "/api/cards", nil, &out)
	return out.Cards, err
}

// localCards reads the card files under dir as deck.Load would see them: *.md files, not
// README.md, skipping names that start with "_" or ".".
func localCards(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	fsys := os.DirFS(dir)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || path.Ext(name) != ".md" || strings.EqualFold(name, "README.md") {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		files[p] = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		return err
	})
	return files, err
}

// batchLimit keeps each POST /api/cards under the server's 1 MiB request limit.
const batchLimit = 900 << 10

type batchPut struct {
	Path     string `json:"path"`
	Markdown string `json:"markdown"`
}

type batchResult struct {
	Created, Updated, Unchanged, Deleted, Reverted []string
}

func deckPush(ctx context.Context, c *apiClient, dir string, prune bool, io stdio) error {
	local, err := localCards(dir)
	if err != nil {
		return fmt.Errorf("deck push: %w", err)
	}
	remote, err := c.list(ctx)
	if err != nil {
		return fmt.Errorf("deck push: %w", err)
	}
	byID := map[string]remoteCard{}
	for _, r := range remote {
		byID[r.ID] = r
	}
	paths := make([]string, 0, len(local))
	for p := range local {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// Only what differs is sent, in as few batches as fit: the server checks a batch as a whole,
	// so cards linking to each other pass together.
	var batches [][]batchPut
	var cur []batchPut
	size, same := 0, 0
	inDir := map[string]bool{}
	for _, p := range paths {
		src := local[p]
		id := editor.IDOf(src)
		inDir[id] = true
		sum := sha256.Sum256(src)
		if r, ok := byID[id]; ok && id != "" && r.SHA256 == hex.EncodeToString(sum[:]) && r.Path == p {
			same++
			continue
		}
		if size+len(src) > batchLimit && len(cur) > 0 {
			batches, cur, size = append(batches, cur), nil, 0
		}
		cur, size = append(cur, batchPut{Path: p, Markdown: string(src)}), size+len(src)+len(p)
	}
	var gone []string
	if prune {
		for _, r := range remote {
			if r.Stored && !inDir[r.ID] {
				gone = append(gone, r.ID)
			}
		}
	}
	if len(cur) > 0 || len(gone) > 0 {
		batches = append(batches, cur)
	}
	var total batchResult
	for i, b := range batches {
		body := map[string]any{"put": b}
		if i == len(batches)-1 && len(gone) > 0 {
			body["delete"] = gone
		}
		js, err := json.Marshal(body)
		if err != nil {
			return err
		}
		var res batchResult
		if _, err := c.do(ctx, http.MethodPost, "/api/cards", js, &res); err != nil {
			fmt.Fprintf(io.err, "deck push: nothing in this batch of %d cards was saved: %v\n", len(b), err)
			fmt.Fprintf(io.out, "%d created, %d updated, %d unchanged, %d deleted before the failure\n", len(total.Created), len(total.Updated), same, len(total.Deleted))
			return exitError{1}
		}
		for _, p := range res.Created {
			fmt.Fprintf(io.out, "created %s\n", p)
		}
		for _, p := range res.Updated {
			fmt.Fprintf(io.out, "updated %s\n", p)
		}
		for _, p := range res.Reverted {
			fmt.Fprintf(io.out, "reverted %s (to the instance's card file)\n", p)
		}
		for _, p := range res.Deleted {
			fmt.Fprintf(io.out, "deleted %s\n", p)
		}
		total.Created = append(total.Created, res.Created...)
		total.Updated = append(total.Updated, res.Updated...)
		total.Deleted = append(total.Deleted, res.Deleted...)
		same += len(res.Unchanged)
	}
	fmt.Fprintf(io.out, "%d created, %d updated, %d unchanged, %d deleted\n", len(total.Created), len(total.Updated), same, len(total.Deleted))
	return nil
}

func deckPull(ctx context.Context, c *apiClient, dir string, all bool, io stdio) error {
	remote, err := c.list(ctx)
	if err != nil {
		return fmt.Errorf("deck pull: %w", err)
	}
	n := 0
	for _, r := range remote {
		if !all && !r.Stored {
			continue
		}
		if !editor.IsSlug(r.ID) || !filepath.IsLocal(filepath.FromSlash(r.Path)) || path.Ext(r.Path) != ".md" {
			return fmt.Errorf("deck pull: the instance sent an unsafe path %q for card %q", r.Path, r.ID)
		}
		var full remoteCard
		if _, err := c.do(ctx, http.MethodGet, "/api/cards/"+url.PathEscape(r.ID), nil, &full); err != nil {
			return fmt.Errorf("deck pull: %w", err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(r.Path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("deck pull: %w", err)
		}
		if err := os.WriteFile(dst, []byte(full.Markdown), 0o644); err != nil {
			return fmt.Errorf("deck pull: %w", err)
		}
		n++
	}
	fmt.Fprintf(io.out, "wrote %d cards to %s\n", n, dir)
	return nil
}
