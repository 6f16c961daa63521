package srs

import (
	"testing"
	"time"
)

func BenchmarkReview(b *testing.B) {
	s := DefaultScheduler()
	b.Run("new", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			_ = s.Review(Card{}, allRatings[i&3], t0)
		}
	})
	b.Run("review", func(b *testing.B) {
		c := reviewCard()
		now := t0.Add(12 * day)
		for i := 0; b.Loop(); i++ {
			_ = s.Review(c, allRatings[i&3], now.Add(time.Duration(i)))
		}
	})
}
