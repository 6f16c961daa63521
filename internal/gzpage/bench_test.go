package gzpage

import (
	"bytes"
	"strings"
	"testing"
)

// BenchmarkPage is a signed-in card page's shape: a few kilobytes of per-user markup around a
// 60 KB part compressed once.
func BenchmarkPage(b *testing.B) {
	head := []byte(strings.Repeat(`<a href="/study" class="nav">Study</a><span id="count-new">12</span> `, 40))
	tail := head[:800]
	part := NewPart([]byte(strings.Repeat(`<li><p>Every member revokes <strong>all</strong> partitions</p></li>`, 900)))
	for _, memo := range []*Memo{nil, NewMemo(1 << 20)} {
		name := "compressed"
		if memo != nil {
			name = "memo"
		}
		b.Run(name, func(b *testing.B) { benchPage(b, memo, head, tail, part) })
	}
}

func benchPage(b *testing.B, memo *Memo, head, tail []byte, part *Part) {
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		w := NewWriter(&out, memo)
		w.Write(head)
		w.Splice(part)
		w.Write(tail)
		w.Close()
	}
	b.ReportMetric(float64(out.Len()), "gz-bytes")
}

// BenchmarkReplay is a study page's template: about 5 KB of markup with the moment it was shown
// in two holes.
func BenchmarkReplay(b *testing.B) {
	row := []byte(strings.Repeat(`<li class="item"><a href="/cards/x">question</a></li>`, 40))
	var rec bytes.Buffer
	w := NewWriter(&rec, nil)
	w.Record()
	w.Write(row)
	w.WriteVolatile([]byte("1733058453123"))
	w.Write(row)
	w.WriteVolatile([]byte("1733058453123"))
	w.Write(row[:200])
	w.Close()
	t := w.Recorded()
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if !t.Replay(&out, []byte("1733058453123"), []byte("1733058459999")) {
			b.Fatal("not replayed")
		}
	}
}
