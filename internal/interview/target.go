package interview

import (
	"hash/fnv"
	"strconv"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
)

// Target is a card's spoken-answer target at a depth (basics for any depth it does not know).
func Target(c *deck.Card, depth string) time.Duration {
	switch depth {
	case "solid":
		return c.Timing.Solid
	case "deeper":
		return c.Timing.Deeper
	}
	return c.Timing.Basics
}

// FollowUpTarget is a follow-up's clock: half the basics target, or half the session's own
// timer when it set one.
func FollowUpTarget(c *deck.Card, override time.Duration) time.Duration {
	if override > 0 {
		return override / 2
	}
	return c.Timing.Basics / 2
}

// ParseSeed accepts a number as is and hashes any other text, so "team-october" works too.
func ParseSeed(text string) uint64 {
	if n, err := strconv.ParseUint(text, 10, 63); err == nil {
		return n
	}
	h := fnv.New64a()
	h.Write([]byte(text))
	return h.Sum64() >> 1 // keep it positive when stored as a signed integer
}
