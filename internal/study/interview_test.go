package study

import (
	"testing"
	"time"
)

func TestCountdownPacesNewCards(t *testing.T) {
	today := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		days, unseen, limit int
		perDay              int
		msg                 string
	}{
		{12, 34, 0, 4, "12 days to go: 34 cards to learn, 4 a day."},    // 9 days to introduce them
		{12, 34, 20, 20, "12 days to go: 34 cards to learn, 20 a day."}, // the user's own pace is faster
		{12, 90, 5, 10, "12 days to go: 90 cards to learn, 10 a day."},
		{2, 7, 1, 7, "2 days to go: 7 cards to learn, 7 a day."}, // too late to spread: all now
		{1, 1, 0, 1, "1 day to go: 1 card to learn, 1 a day."},
		{5, 0, 10, 10, "5 days to go: every card seen; reviews bring each back before the day."},
		{0, 3, 10, 10, "Interview day. Your cards are as ready as they will be: good luck."},
	}
	for _, c := range cases {
		got, ok := CountdownFor(today.AddDate(0, 0, c.days), today, c.unseen, c.limit)
		if !ok || got.PerDay != c.perDay || got.DaysLeft != c.days || got.Message() != c.msg {
			t.Errorf("%d days, %d unseen, limit %d: %+v %q (ok %v), want %d a day, %q", c.days, c.unseen, c.limit, got, got.Message(), ok, c.perDay, c.msg)
		}
		// Every card is introduced LeadDays before the date (or today when that has passed).
		if c.unseen > 0 && c.days > 0 {
			daysToIntroduce := max(c.days-LeadDays, 1)
			if got.PerDay*daysToIntroduce < c.unseen {
				t.Errorf("%d a day for %d days leaves cards unseen of %d", got.PerDay, daysToIntroduce, c.unseen)
			}
		}
	}
	if _, ok := CountdownFor(today.AddDate(0, 0, -1), today, 5, 5); ok {
		t.Error("a past date still counts down")
	}
}
