package anki

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Package versions of Anki's "meta" entry (PackageMetadata.version).
const (
	metaLegacy1 = 1 // collection.anki2
	metaLegacy2 = 2 // collection.anki21
	metaLatest  = 3 // collection.anki21b: zstd, protobuf media list
)

// zipMagic starts every zip file with at least one entry (a local file header).
var zipMagic = []byte("PK\x03\x04")

// LooksLikeZip reports whether b (the first bytes of a file) starts a zip archive, as an .apkg
// does: callers route such input here rather than to a text importer.
func LooksLikeZip(b []byte) bool { return bytes.HasPrefix(b, zipMagic) }

// Read reads the package of size bytes at r. The collection is copied to a temporary file in
// tmpDir (SQLite reads files), removed before Read returns.
func Read(ctx context.Context, r io.ReaderAt, size int64, tmpDir string, lim Limits) (*Package, error) {
	head := make([]byte, 4)
	if n, _ := r.ReadAt(head, 0); n < 4 || !LooksLikeZip(head) {
		return nil, refuse("not an Anki package: the file is not a zip archive")
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, refuse("not an Anki package: unreadable zip (%v)", err)
	}
	if len(zr.File) > lim.MaxEntries {
		return nil, refuse("refused: the package holds %d files (at most %d)", len(zr.File), lim.MaxEntries)
	}
	a := &archive{files: map[string]*zip.File{}, lim: lim}
	for _, f := range zr.File {
		if err := a.check(f); err != nil {
			return nil, err
		}
		a.files[f.Name] = f
	}

	version, err := a.version()
	if err != nil {
		return nil, err
	}
	name := map[int]string{metaLegacy1: "collection.anki2", metaLegacy2: "collection.anki21", metaLatest: "collection.anki21b"}[version]
	tmp, err := os.CreateTemp(tmpDir, "rehearse-anki-*.db")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if err := a.copyTo(tmp, name, version == metaLatest); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	p, err := readCollection(ctx, tmp.Name(), lim)
	if err != nil {
		return nil, err
	}
	p.Format = name
	if p.Media, err = a.media(version, p.Notes); err != nil {
		return nil, err
	}
	return p, nil
}

// archive is a zip whose entries passed the size checks, read under a running total.
type archive struct {
	files map[string]*zip.File
	lim   Limits
	total int64 // uncompressed bytes read so far
}

// check refuses an entry whose declared sizes are too big or that expands like a zip bomb. The
// declared sizes can lie, so reads are bounded again as they happen (limited).
func (a *archive) check(f *zip.File) error {
	if f.UncompressedSize64 > uint64(a.lim.MaxEntryBytes) {
		return refuse("refused: %q expands to %d bytes (at most %d)", f.Name, f.UncompressedSize64, a.lim.MaxEntryBytes)
	}
	if f.UncompressedSize64 > 1<<20 && f.UncompressedSize64 > uint64(a.lim.MaxRatio)*max(f.CompressedSize64, 1) {
		return refuse("refused: %q expands %d times over (a zip bomb?)", f.Name, f.UncompressedSize64/max(f.CompressedSize64, 1))
	}
	return nil
}

// open reads an entry through the limits: its own size cap and the package's running total.
func (a *archive) open(name string, zstdCompressed bool, capBytes int64) ([]byte, error) {
	var buf bytes.Buffer
	if err := a.read(&buf, name, zstdCompressed, capBytes); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (a *archive) copyTo(w io.Writer, name string, zstdCompressed bool) error {
	return a.read(w, name, zstdCompressed, a.lim.MaxEntryBytes)
}

func (a *archive) read(w io.Writer, name string, zstdCompressed bool, capBytes int64) error {
	f := a.files[name]
	if f == nil {
		return refuse("not an Anki package: no %s in the zip", name)
	}
	rc, err := f.Open()
	if err != nil {
		return refuse("not an Anki package: %s: %v", name, err)
	}
	defer rc.Close()
	var src io.Reader = rc
	if zstdCompressed {
		// The window cap keeps a hostile frame from asking for gigabytes of buffer.
		d, err := zstd.NewReader(rc, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(64<<20), zstd.WithDecoderMaxMemory(uint64(capBytes)))
		if err != nil {
			return err
		}
		defer d.Close()
		src = d
	}
	left := min(capBytes, a.lim.MaxTotalBytes-a.total)
	n, err := io.Copy(w, io.LimitReader(src, left+1))
	a.total += n
	if err != nil {
		if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) {
			return refuse("refused: %s expands beyond %d bytes (a zip bomb?)", name, capBytes)
		}
		return refuse("not an Anki package: %s: %v", name, err)
	}
	if n > left {
		return refuse("refused: %s expands beyond %d bytes (a zip bomb?)", name, left)
	}
	return nil
}

// version is the package format: the meta entry's when there is one, else the newest legacy
// collection present.
func (a *archive) version() (int, error) {
	if a.files["meta"] != nil {
		b, err := a.open("meta", false, 1<<10)
		if err != nil {
			return 0, err
		}
		v, err := protoVarintField(b, 1)
		if err != nil {
			return 0, refuse("not an Anki package: unreadable meta (%v)", err)
		}
		if v < metaLegacy1 || v > metaLatest {
			return 0, refuse("unknown Anki package version %d (this reader knows 1 to 3; export from Anki with \"Support older Anki versions\")", v)
		}
		return int(v), nil
	}
	switch {
	case a.files["collection.anki21"] != nil:
		return metaLegacy2, nil
	case a.files["collection.anki2"] != nil:
		return metaLegacy1, nil
	}
	return 0, refuse("not an Anki package: the zip has no collection.anki2, collection.anki21 or collection.anki21b")
}

// media reads the image files the notes show. Legacy packages list them as JSON {"0": name};
// the latest as a zstd-compressed protobuf MediaEntries whose n-th entry is zip entry "n".
func (a *archive) media(version int, notes []Note) (map[string][]byte, error) {
	wanted := map[string]bool{}
	for _, n := range notes {
		for _, f := range n.Fields {
			for _, src := range imageSources(f) {
				wanted[src] = true
			}
		}
	}
	out := map[string][]byte{}
	if len(wanted) == 0 || a.files["media"] == nil {
		return out, nil
	}
	latest := version == metaLatest
	list, err := a.open("media", latest, 16<<20)
	if err != nil {
		return nil, err
	}
	index := map[string]string{} // file name -> zip entry
	if latest {
		names, err := protoMediaNames(list)
		if err != nil {
			return nil, refuse("not an Anki package: unreadable media list (%v)", err)
		}
		for i, n := range names {
			index[n] = strconv.Itoa(i)
		}
	} else {
		var m map[string]string
		if err := json.Unmarshal(list, &m); err != nil {
			return nil, refuse("not an Anki package: unreadable media list (%v)", err)
		}
		for k, n := range m {
			index[n] = k
		}
	}
	for name := range wanted {
		entry, ok := index[name]
		if !ok || imageType(name) == "" || !safeName(name) {
			continue // a missing or unsupported image shows as its alt text
		}
		b, err := a.open(entry, latest, a.lim.MaxMediaBytes)
		if a.total > a.lim.MaxTotalBytes {
			return nil, refuse("refused: the package expands beyond %d bytes (a zip bomb?)", a.lim.MaxTotalBytes)
		}
		if err != nil {
			continue // an image too big or unreadable shows as its alt text
		}
		out[name] = b
	}
	return out, nil
}

// safeName is a plain file name, as Anki keeps in its media folder: no directories.
func safeName(name string) bool {
	return name != "" && name == path.Base(name) && !strings.ContainsAny(name, "/\\\x00") && name != "." && name != ".."
}

// imageType is the Content-Type of the image formats browsers show safely from an <img>; SVG
// is left out (it can carry script).
func imageType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	}
	return ""
}
