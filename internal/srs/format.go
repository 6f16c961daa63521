package srs

import (
	"math"
	"strconv"
	"time"
)

// Calendar lengths used for labels only: a month is a twelfth of a 365-day year.
const (
	labelYear  = 365 * day
	labelMonth = labelYear / 12
)

// FormatInterval gives the short label Anki shows on answer buttons: whole seconds,
// minutes and days ("45s", "10m", "11d"); hours, months and years to one decimal with a
// trailing ".0" dropped ("1h", "1.5h", "3.2mo", "1.5y"). Negative durations read "0s".
func FormatInterval(d time.Duration) string {
	d = max(d, 0)
	// Pick the unit from the rounded value so 59.6 minutes reads "1h", not "60m".
	switch {
	case math.Round(d.Seconds()) < 60:
		return whole(d.Seconds()) + "s"
	case math.Round(d.Minutes()) < 60:
		return whole(d.Minutes()) + "m"
	case round1(d.Hours()) < 24:
		return tenths(d.Hours()) + "h"
	case d < labelMonth-day/2:
		return whole(d.Hours()/24) + "d"
	case round1(float64(d)/float64(labelYear)) < 1:
		return tenths(float64(d)/float64(labelMonth)) + "mo"
	}
	return tenths(float64(d)/float64(labelYear)) + "y"
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func whole(v float64) string { return strconv.FormatFloat(math.Round(v), 'f', 0, 64) }

func tenths(v float64) string { return strconv.FormatFloat(round1(v), 'f', -1, 64) }
