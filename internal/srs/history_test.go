package srs

import (
	"slices"
	"testing"
	"time"
)

// Published FSRS-6 interval history (ts-fsrs FSRS-6 suite, default weights, no fuzz,
// steps 1m/10m and 10m): each review happens exactly when the previous one fell due, and a
// (re)learning step counts as 0 days.
func TestPublishedIntervalHistory(t *testing.T) {
	s := noFuzz()
	ratings := []Rating{Good, Good, Good, Good, Good, Good, Again, Again, Good, Good, Good, Good, Good}
	want := []int{0, 2, 11, 46, 163, 498, 0, 0, 2, 4, 7, 12, 21}
	var c Card
	now := time.Date(2022, 12, 29, 12, 30, 0, 0, time.UTC)
	var got []int
	for _, r := range ratings {
		c = s.Review(c, r, now)
		got = append(got, int(c.Due.Sub(now)/day))
		now = c.Due
	}
	if !slices.Equal(got, want) {
		t.Errorf("interval history %v, want %v", got, want)
	}
	if c.Lapses != 1 || c.Reps != len(ratings) {
		t.Errorf("lapses %d reps %d, want 1 %d", c.Lapses, c.Reps, len(ratings))
	}
}
