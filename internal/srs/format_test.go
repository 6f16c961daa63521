package srs

import (
	"testing"
	"time"
)

func TestFormatInterval(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{-5 * time.Second, "0s"},
		{0, "0s"},
		{30 * time.Second, "30s"},
		{time.Minute, "1m"},
		{330 * time.Second, "6m"},
		{10 * time.Minute, "10m"},
		{59*time.Minute + 40*time.Second, "1h"},
		{time.Hour, "1h"},
		{90 * time.Minute, "1.5h"},
		{2 * day, "2d"},
		{11 * day, "11d"},
		{29 * day, "29d"},
		{97 * day, "3.2mo"},
		{547*day + 12*time.Hour, "1.5y"},
		{36500 * day, "100y"},
	}
	for _, c := range cases {
		if got := FormatInterval(c.d); got != c.want {
			t.Errorf("FormatInterval(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
