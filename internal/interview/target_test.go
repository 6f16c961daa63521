package interview

import (
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
)

func TestTargets(t *testing.T) {
	c := &deck.Card{Timing: deck.Timing{Basics: 40 * time.Second, Solid: 90 * time.Second, Deeper: 3 * time.Minute}}
	for depth, want := range map[string]time.Duration{"basics": 40 * time.Second, "solid": 90 * time.Second,
		"deeper": 3 * time.Minute, "": 40 * time.Second, "other": 40 * time.Second} {
		if got := Target(c, depth); got != want {
			t.Errorf("Target(%q) = %v, want %v", depth, got, want)
		}
	}
	if got := FollowUpTarget(c, 0); got != 20*time.Second {
		t.Errorf("follow-up without a timer: %v, want half the basics target", got)
	}
	if got := FollowUpTarget(c, time.Minute); got != 30*time.Second {
		t.Errorf("follow-up with a 60 s timer: %v, want 30 s", got)
	}
}

func TestParseSeed(t *testing.T) {
	if got := ParseSeed("42"); got != 42 {
		t.Errorf("a number is kept: %d", got)
	}
	a, b := ParseSeed("team-october"), ParseSeed("team-october")
	if a != b || a == ParseSeed("team-november") {
		t.Errorf("text seeds must be stable and distinct: %d %d", a, b)
	}
	if int64(a) < 0 || int64(ParseSeed("18446744073709551615")) < 0 {
		t.Error("a seed must stay positive as a signed integer")
	}
}
