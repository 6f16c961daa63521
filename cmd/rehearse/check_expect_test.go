package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// A false expectation fails the check at its own line, with the value the simulation produced;
// true ones (an exact count, a bound, a comparison between variants) pass silently.
func TestCheckReportsFalseExpectation(t *testing.T) {
	dir := simDeck(t, "simulation:\n  preset: consumer-join\n  compare: [eager, cooperative]\n  caption: Look.\n  expect:\n"+
		"    cooperative.moved: 6\n"+ // line 12: false, cooperative moves 3
		"    cooperative.rebalances: 2\n"+
		"    cooperative.max_pause_ms: \"< 5000\"\n"+
		"    moved: eager > cooperative\n"+
		"    eager.paused_items: 4..11\n") // line 16: false, eager pauses all 12
	out, stderr, err := runCheck(t, dir)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v, want exit 1 (stdout %q)", err, out)
	}
	file := filepath.Join(dir, "card.md")
	want := []string{
		file + ":12: expect cooperative.moved = 6, got 3",
		file + ":16: expect eager.paused_items in 4..11, got 12",
	}
	got := strings.Split(strings.TrimSpace(stderr), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, strings.Join(want, "\n"))
	}
}

func TestCheckRejectsMalformedExpectation(t *testing.T) {
	for _, tc := range []struct{ name, expect, want string }{
		{"unknown metric", "    cooperative.speed: 3\n", `:12: simulation.expect.cooperative.speed: unknown metric "speed"`},
		{"unknown variant", "    consumer.moved: 3\n", `:12: simulation.expect.consumer.moved: "consumer" is not one of the compared variants`},
		{"not a number", "    cooperative.moved: lots\n", `:12: simulation.expect.cooperative.moved: "lots" is not a number`},
		{"bad comparison", "    moved: eager much more than cooperative\n", `:12: simulation.expect.moved: "eager much more than cooperative" is not a comparison`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := simDeck(t, "simulation:\n  preset: consumer-join\n  compare: [eager, cooperative]\n  caption: Look.\n  expect:\n"+tc.expect)
			_, stderr, err := runCheck(t, dir)
			if err == nil || !strings.Contains(stderr, filepath.Join(dir, "card.md")+tc.want) {
				t.Errorf("err=%v stderr=%q, want it to contain %q", err, stderr, tc.want)
			}
		})
	}
}
