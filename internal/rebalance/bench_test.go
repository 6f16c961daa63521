package rebalance

import (
	"context"
	"runtime"
	"testing"
)

func BenchmarkPresets(b *testing.B) {
	for _, p := range Presets() {
		s, _ := Preset(p.Name)
		b.Run(p.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(context.Background(), s, CLILimits); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// bigRolling is a rolling restart of 1,000 members over 100,000 partitions.
func bigRolling(label string) Scenario {
	s := Scenario{Kind: "consumer", Topics: map[string]int{"events": 100_000}, Members: members(1000, "m"),
		Events:     []Event{{AtMS: 10_000, Type: "rolling_restart", IntervalMS: 30_000, DownMS: 10_000}},
		DurationMS: 10_000 + 1000*30_000 + 120_000, Seed: 1}
	s, _ = Variant(s.WithDefaults(), label)
	return s
}

func BenchmarkRollingRestart1000x100k(b *testing.B) {
	for _, label := range []string{"eager", "cooperative", "consumer", "eager+static"} {
		s := bigRolling(label)
		b.Run(label, func(b *testing.B) {
			b.ReportAllocs()
			var peak uint64
			for b.Loop() {
				r, err := Run(context.Background(), s, CLILimits)
				if err != nil {
					b.Fatal(err)
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
				b.ReportMetric(float64(r.Metrics.Rebalances), "rebalances")
			}
			b.ReportMetric(float64(peak)/(1<<20), "heapMiB")
		})
	}
}
