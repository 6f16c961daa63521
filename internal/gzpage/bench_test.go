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
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		w := NewWriter(&out)
		w.Write(head)
		w.Splice(part)
		w.Write(tail)
		w.Close()
	}
	b.ReportMetric(float64(out.Len()), "gz-bytes")
}
