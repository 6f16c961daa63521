package gzpage

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestCombineMatchesChecksumOfConcatenation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 3, 8, 100, 4096, 70000} {
		a, b := make([]byte, rng.IntN(500)), make([]byte, n)
		for i := range a {
			a[i] = byte(rng.Uint32())
		}
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		want := crc32.ChecksumIEEE(append(bytes.Clone(a), b...))
		if got := Combine(crc32.ChecksumIEEE(a), crc32.ChecksumIEEE(b), int64(len(b))); got != want {
			t.Errorf("len(b)=%d: Combine = %08x, want %08x", n, got, want)
		}
	}
}

// piece is either markup written through the writer or a part spliced in.
type piece struct {
	text    string
	spliced bool
}

func build(t *testing.T, pieces []piece) (gz []byte, plain string) {
	t.Helper()
	var out bytes.Buffer
	w := NewWriter(&out)
	var all strings.Builder
	for _, p := range pieces {
		all.WriteString(p.text)
		if p.spliced {
			if err := w.Splice(NewPart([]byte(p.text))); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := io.WriteString(w, p.text); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), all.String()
}

func gunzip(t *testing.T, gz []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	b, err := io.ReadAll(zr) // checks the trailer's CRC and length
	if err != nil {
		t.Fatalf("decompress: %v", err)
	}
	return string(b)
}

func TestSplicedStreamDecompressesToTheMarkup(t *testing.T) {
	// Repetitive text tempts the compressor into back-references across the splice points,
	// which is exactly what must not happen.
	row := strings.Repeat(`<li class="item"><a href="/cards/x">question</a></li>`, 40)
	cases := map[string][]piece{
		"nothing":            nil,
		"written only":       {{text: row}},
		"part only":          {{text: row, spliced: true}},
		"part first":         {{text: row, spliced: true}, {text: "<footer>tail</footer>"}},
		"part last":          {{text: "<head>x</head>"}, {text: row, spliced: true}},
		"parts back to back": {{text: row}, {text: row, spliced: true}, {text: row + "2", spliced: true}, {text: row}},
		"interleaved":        {{text: row}, {text: row, spliced: true}, {text: row}, {text: row, spliced: true}, {text: row}},
		"empty part":         {{text: "a"}, {text: "", spliced: true}, {text: "b"}},
		"big part":           {{text: "<p>"}, {text: strings.Repeat(row, 50), spliced: true}, {text: "</p>"}},
	}
	for name, pieces := range cases {
		t.Run(name, func(t *testing.T) {
			gz, want := build(t, pieces)
			if got := gunzip(t, gz); got != want {
				t.Fatalf("decompressed %d bytes, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
			}
		})
	}
}

func TestWriterIsReusableAfterClose(t *testing.T) {
	// Writers come from a pool: a second stream must not inherit anything from the first.
	for i := range 3 {
		gz, want := build(t, []piece{{text: strings.Repeat("abc", 1000+i)}, {text: "part", spliced: true}, {text: "end"}})
		if got := gunzip(t, gz); got != want {
			t.Fatalf("stream %d decompressed wrongly", i)
		}
	}
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Close()
	if _, err := w.Write([]byte("x")); err == nil {
		t.Error("Write after Close succeeded")
	}
	if err := w.Splice(NewPart([]byte("x"))); err == nil {
		t.Error("Splice after Close succeeded")
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
