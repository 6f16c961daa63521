package study

import (
	"fmt"
	"time"
)

// LeadDays is how many days before an interview date every card should have been seen once,
// so that the last review before the date (srs.DefaultDeadlineWindow) is not its first.
const LeadDays = 3

// Countdown is what an interview date means on one study day.
type Countdown struct {
	DaysLeft int // study days from today to the date; 0 on the day itself
	Unseen   int // cards never studied
	PerDay   int // new cards a day: the user's limit, raised so every card is seen LeadDays before
}

// CountdownFor plans the new cards from today to the interview date (both study days, as Day
// returns them). ok is false once the date has passed.
func CountdownFor(date, today time.Time, unseen, newLimit int) (c Countdown, ok bool) {
	if date.Before(today) {
		return Countdown{}, false
	}
	c = Countdown{DaysLeft: int(date.Sub(today).Hours()/24 + 0.5), Unseen: unseen, PerDay: newLimit}
	days := c.DaysLeft - LeadDays // study days left to introduce cards in, today included
	if days < 1 {
		days = 1
	}
	if need := (unseen + days - 1) / days; need > c.PerDay {
		c.PerDay = need
	}
	return c, true
}

// Message says what the countdown means today, for the home page.
func (c Countdown) Message() string {
	lead, rest := c.Parts()
	return lead + rest
}

// Parts is Message cut after its headline ("12 days to go"), for a page to set it apart.
func (c Countdown) Parts() (lead, rest string) {
	switch {
	case c.DaysLeft == 0:
		return "Interview day", ". Your cards are as ready as they will be: good luck."
	case c.Unseen == 0:
		return days(c.DaysLeft) + " to go", ": every card seen; reviews bring each back before the day."
	}
	return days(c.DaysLeft) + " to go", fmt.Sprintf(": %d %s to learn, %d a day.", c.Unseen, plural(c.Unseen, "card", "cards"), min(c.PerDay, c.Unseen))
}

func days(n int) string { return fmt.Sprintf("%d %s", n, plural(n, "day", "days")) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
