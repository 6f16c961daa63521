package deck

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// benchFS builds a deck of n cards shaped like real ones: front matter with a simulation, a
// code block and a table in the explanation, several follow-ups.
func benchFS(b *testing.B, n int) fstest.MapFS {
	src, err := os.ReadFile("testdata/valid/kafka/eager.md")
	if err != nil {
		b.Fatal(err)
	}
	fsys := fstest.MapFS{}
	for i := range n {
		s := strings.Replace(string(src), "id: connect-eager-rebalancing", fmt.Sprintf("id: card-%04d", i), 1)
		s = strings.Replace(s, "topic: Kafka Connect", fmt.Sprintf("topic: Topic %d", i%12), 1)
		s = strings.Replace(s, "Stopping everything", fmt.Sprintf("Card %d says stopping everything", i), 1)
		fsys[fmt.Sprintf("t%02d/card-%04d.md", i%12, i)] = &fstest.MapFile{Data: []byte(s)}
	}
	return fsys
}

func BenchmarkLoad(b *testing.B) {
	fsys := benchFS(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		d, err := Load(fsys, Options{})
		if err != nil || d.Len() != 1000 {
			b.Fatal(err)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	d, err := Load(benchFS(b, 1000), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if hits := d.Search("card 999 stopping", 20); len(hits) != 1 {
			b.Fatalf("got %d hits", len(hits))
		}
	}
}

// BenchmarkSearchCommon searches for a word most cards hold, as bench/load's searches do.
func BenchmarkSearchCommon(b *testing.B) {
	d, err := Load(benchFS(b, 1000), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if hits := d.Search("stopping", 50); len(hits) != 50 {
			b.Fatalf("got %d hits", len(hits))
		}
	}
}
