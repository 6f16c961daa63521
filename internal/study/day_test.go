package study

import (
	"testing"
	"time"
)

func TestStudyDayRollover(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	cases := []struct {
		at   time.Time
		want int // day of November
	}{
		{time.Date(2026, 11, 3, 3, 59, 0, 0, ny), 2},
		{time.Date(2026, 11, 3, 4, 0, 0, 0, ny), 3},
		{time.Date(2026, 11, 3, 23, 0, 0, 0, ny), 3},
	}
	for _, c := range cases {
		if got := Day(c.at, ny); got.Day() != c.want {
			t.Errorf("Day(%v) = %v, want Nov %d", c.at, got, c.want)
		}
	}
	if s := DayStart(time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC), ny); !s.Equal(time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("DayStart = %v", s)
	}
}
