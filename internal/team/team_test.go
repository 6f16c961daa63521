package team

import (
	"os"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/store"
)

func TestMockScoresAverageSessions(t *testing.T) {
	t.Parallel()
	d, err := deck.Load(os.DirFS("testdata/deck"), deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Two sessions: one perfect answer on time (100), then one answer with nothing covered, over time and
	// rated Again (0): the average of the sessions is 50. A session with no rated answer has no score.
	answers := []store.MockAnswer{
		{SessionID: 1, CardID: "sample-eager", Depth: "deeper", Covered: []int{0, 1}, HasText: true, UsedMS: 20000, TargetMS: 20000, Rating: 4},
		{SessionID: 2, CardID: "sample-eager", Depth: "deeper", HasText: true, UsedMS: 50000, TargetMS: 20000, Rating: 1},
		{SessionID: 3, CardID: "sample-eager", Depth: "deeper", UsedMS: 1000, TargetMS: 20000},
	}
	n, avg := MockScores(d, answers)
	if n != 2 || avg != 50 {
		t.Fatalf("sessions=%d avg=%v, want 2 and 50", n, avg)
	}
	// As on the summary: an instant answer with nothing typed, spoken or ticked, rated Easy, gets
	// no time credit and at most 10; the same answer recorded and spoken on time is not empty.
	empty := store.MockAnswer{SessionID: 4, CardID: "sample-eager", Depth: "deeper", UsedMS: 20000, TargetMS: 20000, Rating: 4}
	if _, avg := MockScores(d, []store.MockAnswer{empty}); avg != 10 {
		t.Fatalf("empty answer rated Easy scores %v in the team view, want 10", avg)
	}
	spoken := empty
	spoken.UsedMS, spoken.SpokenMS = 1000, 20000
	if _, avg := MockScores(d, []store.MockAnswer{spoken}); avg != 40 {
		t.Fatalf("spoken answer on time, nothing ticked, rated Easy: %v, want 40 (30 for time from the recording, 10 for the rating)", avg)
	}
}
