// Package web holds the static assets (CSS, a little JavaScript) and serves them under
// content-hashed names, so browsers may cache them for a year and still see every change.
package web

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed static
var static embed.FS

// Assets maps logical names ("app.css") to hashed URLs and serves them.
type Assets struct {
	urls  map[string]string // logical name → /static/name.HASH.ext
	files map[string][]byte // hashed name → content
	types map[string]string
}

// NewAssets hashes the embedded files. extra adds generated files (e.g. highlight CSS).
func NewAssets(extra map[string][]byte) (*Assets, error) {
	a := &Assets{urls: map[string]string{}, files: map[string][]byte{}, types: map[string]string{}}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		a.add(strings.TrimPrefix(p, "static/"), b)
		return nil
	})
	for name, b := range extra {
		a.add(name, b)
	}
	return a, err
}

func (a *Assets) add(name string, b []byte) {
	sum := sha256.Sum256(b)
	ext := path.Ext(name)
	hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
	a.urls[name] = "/static/" + hashed
	a.files[hashed] = b
	switch ext {
	case ".css":
		a.types[hashed] = "text/css; charset=utf-8"
	case ".js":
		a.types[hashed] = "text/javascript; charset=utf-8"
	case ".svg":
		a.types[hashed] = "image/svg+xml"
	default:
		a.types[hashed] = "application/octet-stream"
	}
}

// URL returns the hashed URL of a logical asset name ("" if unknown).
func (a *Assets) URL(name string) string { return a.urls[name] }

var modTime = time.Unix(0, 0)

// ServeHTTP serves /static/NAME.HASH.EXT with a one-year immutable cache lifetime.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/static/")
	b, ok := a.files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.types[name])
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, name, modTime, strings.NewReader(string(b)))
}
