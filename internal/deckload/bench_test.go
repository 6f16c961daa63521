package deckload

import (
	"os"
	"testing"
)

// BenchmarkLoadDir loads the deck in $REHEARSE_BENCH_DECK (bench/gendeck's output) with every
// check serve applies, as a start without a parse cache does.
func BenchmarkLoadDir(b *testing.B) {
	dir := os.Getenv("REHEARSE_BENCH_DECK")
	if dir == "" {
		b.Skip("set REHEARSE_BENCH_DECK to a deck directory (go run ./bench/gendeck -n 1000 -o DIR)")
	}
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(fsys, false); err != nil {
			b.Fatal(err)
		}
	}
}
