package study

import "time"

// DayRolloverHour is when a study day starts, in the user's time zone. As in Anki, a session
// that runs past midnight still counts for the evening it started in.
const DayRolloverHour = 4

// Day returns the study day t falls in, in loc, as midnight UTC of that calendar date (a plain
// date that is safe to compare and step with AddDate).
func Day(t time.Time, loc *time.Location) time.Time {
	lt := t.In(loc)
	y, m, d := lt.Date()
	if lt.Hour() < DayRolloverHour {
		d--
	}
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// DayStart is the instant a study day (as returned by Day) begins in loc.
func DayStart(day time.Time, loc *time.Location) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, DayRolloverHour, 0, 0, 0, loc)
}

// DayEnd is the instant the study day containing now ends in loc (the next 04:00).
func DayEnd(now time.Time, loc *time.Location) time.Time {
	return DayStart(Day(now, loc).AddDate(0, 0, 1), loc)
}
