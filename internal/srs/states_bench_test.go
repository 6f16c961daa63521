package srs

import (
	"fmt"
	"testing"
	"time"
)

// Get against a map lookup, over a deck of 1,000 cards with 625 studied (as BuildQueue's benchmark).
func BenchmarkStatesGet(b *testing.B) {
	m := map[string]Card{}
	var ids []string
	now := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for i := range 1000 {
		id := fmt.Sprintf("gen-%04d", i)
		ids = append(ids, id)
		if i%8 < 5 {
			m[id] = Card{State: Review, Stability: 3, Difficulty: 5, Due: now.Add(time.Duration(i) * time.Hour), Reps: 2}
		}
	}
	st := StatesOf(m)
	b.Run("map", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, id := range ids {
				if c, ok := m[id]; ok && c.State == Review {
					n++
				}
			}
		}
	})
	b.Run("states", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, id := range ids {
				if c, ok := st.Get(id); ok && c.State == Review {
					n++
				}
			}
		}
	})
}
