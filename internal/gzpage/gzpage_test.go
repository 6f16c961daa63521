package gzpage

import (
	"bytes"
	"compress/gzip"
	"hash/crc32"
	"hash/maphash"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/klauspost/compress/flate"
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

// piece is markup written through the writer, a part spliced in, or volatile markup.
type piece struct {
	text     string
	spliced  bool
	volatile bool
}

func build(t *testing.T, pieces []piece) (gz []byte, plain string) {
	return buildMemo(t, nil, pieces)
}

func buildMemo(t *testing.T, memo *Memo, pieces []piece) (gz []byte, plain string) {
	t.Helper()
	var out bytes.Buffer
	w := NewWriter(&out, memo)
	var all strings.Builder
	for _, p := range pieces {
		all.WriteString(p.text)
		var err error
		switch {
		case p.spliced:
			err = w.Splice(NewPart([]byte(p.text)))
		case p.volatile:
			_, err = w.WriteVolatile([]byte(p.text))
		default:
			_, err = io.WriteString(w, p.text)
		}
		if err != nil {
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
		"volatile":           {{text: row}, {text: "1733058453123", volatile: true}, {text: row}, {text: row, spliced: true}},
		"volatile only":      {{text: "17", volatile: true}, {text: "", volatile: true}, {text: "33", volatile: true}},
		"big volatile":       {{text: row}, {text: strings.Repeat(row, 50), volatile: true}, {text: "end"}},
		"many writes":        {{text: row}, {text: row}, {text: "x"}, {text: row, spliced: true}, {text: "y"}, {text: row}},
		"big segment":        {{text: strings.Repeat(row, 50)}, {text: row, spliced: true}},
	}
	memo := NewMemo(1 << 20)
	for name, pieces := range cases {
		t.Run(name, func(t *testing.T) {
			gz, want := build(t, pieces)
			if got := gunzip(t, gz); got != want {
				t.Fatalf("decompressed %d bytes, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
			}
			// With a memo: the first stream fills it, the second is made of what it kept, and
			// both are the same bytes as without one.
			for i := range 2 {
				if mgz, _ := buildMemo(t, memo, pieces); !bytes.Equal(mgz, gz) {
					t.Fatalf("stream %d with a memo differs from the one without (%d and %d bytes)", i, len(mgz), len(gz))
				}
			}
		})
	}
}

func TestMemoHitsOnlyTheSameBytes(t *testing.T) {
	m := NewMemo(1 << 20)
	seg := []byte(strings.Repeat("<nav>sam</nav>", 10))
	if m.lookup(seg) != nil {
		t.Fatal("an empty memo had the segment")
	}
	m.store(seg, []byte("blocks"))
	if string(m.lookup(seg)) != "blocks" {
		t.Fatal("a stored segment was not found")
	}
	other := []byte(strings.Repeat("<nav>kim</nav>", 10))
	if m.lookup(other) != nil {
		t.Fatal("another segment hit")
	}
	// Two segments with one hash: the second must not get the first's blocks.
	m.m[maphash.Bytes(m.seed, other)] = memoEntry{raw: seg, deflated: []byte("blocks")}
	if m.lookup(other) != nil {
		t.Fatal("a hash collision was taken for a hit")
	}
}

func TestMemoStaysWithinItsBound(t *testing.T) {
	m := NewMemo(10_000)
	for i := range 1000 {
		m.store([]byte(strings.Repeat(string(rune('a'+i%26)), 100+i)), make([]byte, 50))
		if m.bytes > m.max {
			t.Fatalf("after %d stores the memo holds %d bytes, over %d", i+1, m.bytes, m.max)
		}
	}
	var sum int
	for _, e := range m.m {
		sum += len(e.raw) + len(e.deflated)
	}
	if sum != m.bytes {
		t.Fatalf("the memo counts %d bytes and holds %d", m.bytes, sum)
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
	w := NewWriter(&out, nil)
	w.Close()
	if _, err := w.Write([]byte("x")); err == nil {
		t.Error("Write after Close succeeded")
	}
	if err := w.Splice(NewPart([]byte("x"))); err == nil {
		t.Error("Splice after Close succeeded")
	}
	if _, err := w.WriteVolatile([]byte("x")); err == nil {
		t.Error("WriteVolatile after Close succeeded")
	}
	if err := w.Close(); err == nil {
		t.Error("a second Close succeeded")
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

// A template replayed with new markup in its holes is the very stream written afresh with it.
func TestTemplateReplayIsTheFreshStream(t *testing.T) {
	row := strings.Repeat(`<li class="item"><a href="/cards/x">question</a></li>`, 40)
	page := func(v string) []piece {
		return []piece{{text: row}, {text: v, volatile: true}, {text: "<p>"}, {text: row, spliced: true},
			{text: row + "2"}, {text: v, volatile: true}, {text: "end"}}
	}
	memo := NewMemo(1 << 20)
	for _, c := range []struct{ old, new string }{{"1733058453123", "1733058459999"}, {"1", "12345"}, {"", "7"}, {"7", ""}} {
		var out bytes.Buffer
		w := NewWriter(&out, memo)
		w.Record()
		for _, p := range page(c.old) {
			switch {
			case p.spliced:
				w.Splice(NewPart([]byte(p.text)))
			case p.volatile:
				w.WriteVolatile([]byte(p.text))
			default:
				io.WriteString(w, p.text)
			}
		}
		w.Close()
		tmpl := w.Recorded()
		fresh, want := buildMemo(t, memo, page(c.new))
		var replayed bytes.Buffer
		if !tmpl.Replay(&replayed, []byte(c.old), []byte(c.new)) {
			t.Fatalf("%q -> %q: not replayed", c.old, c.new)
		}
		if !bytes.Equal(replayed.Bytes(), fresh) {
			t.Fatalf("%q -> %q: the replay differs from the fresh stream", c.old, c.new)
		}
		if got := gunzip(t, replayed.Bytes()); got != want {
			t.Fatalf("%q -> %q: replay decompressed wrongly", c.old, c.new)
		}
		var none bytes.Buffer
		if tmpl.Replay(&none, []byte(c.old+"x"), []byte(c.new)) || none.Len() != 0 {
			t.Fatalf("a replay for markup the holes did not hold went ahead (%d bytes)", none.Len())
		}
	}
}

// A recorded template keeps each run in a slice of its exact size, so Bytes, which a cache
// bounds itself by, is what it holds; and a part from a pooled writer is the bytes a new
// writer gives.
func TestTemplateAndPartHoldNoSlack(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, nil)
	w.Record()
	for i := range 200 { // many small pieces: a run grown by append would keep spare room
		io.WriteString(w, strings.Repeat("<td>cell</td>", i%7+1))
		if i%50 == 25 {
			w.WriteVolatile([]byte("1733058453123"))
		}
		if i%40 == 10 {
			w.Splice(NewPart([]byte(strings.Repeat("<p>part</p>", i))))
		}
	}
	w.Close()
	tmpl := w.Recorded()
	for i, r := range tmpl.runs {
		if cap(r.deflated) != len(r.deflated) {
			t.Fatalf("run %d holds %d bytes in room for %d", i, len(r.deflated), cap(r.deflated))
		}
	}
	markup := []byte(strings.Repeat("<li>a card question</li>", 300))
	for range 3 { // the second and third from the pool
		var fresh bytes.Buffer
		fw, _ := flate.NewWriter(&fresh, flate.BestCompression)
		fw.Write(markup)
		fw.Flush()
		if p := NewPart(markup); !bytes.Equal(p.deflated, fresh.Bytes()) {
			t.Fatal("a part from a pooled writer differs from a new writer's")
		}
	}
}
