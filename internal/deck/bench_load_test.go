package deck

import (
	"io/fs"
	"os"
	"runtime"
	"testing"

	"github.com/rehearse/rehearse/content"
)

// BenchmarkLoadBundled loads the deck shipped in the binary (real cards, no simulation check).
func BenchmarkLoadBundled(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(content.FS, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadHeap reports what a loaded 1,000-card deck keeps on the heap (liveMiB) next to
// what loading it allocated in all (B/op): the gap is garbage a server should hand back.
// REHEARSE_BENCH_DECK names a deck directory to use instead (bench/gendeck's output).
func BenchmarkLoadHeap(b *testing.B) {
	var fsys fs.FS = benchFS(b, 1000)
	if dir := os.Getenv("REHEARSE_BENCH_DECK"); dir != "" {
		fsys = os.DirFS(dir)
	}
	b.ReportAllocs()
	var live float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		d, err := Load(fsys, Options{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		live = float64(after.HeapAlloc-before.HeapAlloc) / (1 << 20)
		runtime.KeepAlive(d)
	}
	b.ReportMetric(live, "liveMiB")
}
