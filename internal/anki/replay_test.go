package anki

import (
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

const dayMS = 86_400_000

func TestReplayFollowsAnkisRules(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).UnixMilli()
	revs := []Review{
		{ID: t0 - 40*dayMS, Ease: 3, Kind: RevLearning},
		{ID: t0 - 39*dayMS, Ease: 3, Kind: RevReview, Factor: 2500},
		{ID: t0 - 30*dayMS, Ease: 0, Kind: RevManual, Factor: 0}, // reset: what came before goes
		{ID: t0 - 20*dayMS, Ease: 1, Kind: RevLearning},
		{ID: t0 - 20*dayMS + 600_000, Ease: 3, Kind: RevLearning},
		{ID: t0 - 19*dayMS, Ease: 3, Kind: RevReview, Factor: 2500},
		{ID: t0 - 15*dayMS, Ease: 2, Kind: RevFiltered, Factor: 0},    // cram
		{ID: t0 - 12*dayMS, Ease: 0, Kind: RevManual, Factor: 2500},   // set due date
		{ID: t0 - 11*dayMS, Ease: 3, Kind: RevRescheduled, Factor: 0}, // rescheduled
		{ID: t0 - 10*dayMS, Ease: 3, Kind: RevReview, Factor: 2500},
	}
	sc := srs.DefaultScheduler()
	sc.Fuzz = false
	final, answers := Replay(sc, "c", revs, time.UTC)
	if len(answers) != 4 {
		t.Fatalf("%d answers replayed, want 4 (the last learning run and the two reviews)", len(answers))
	}
	if answers[0].At != time.UnixMilli(t0-20*dayMS).UTC() || answers[0].Rating != srs.Again || answers[0].Before.State != srs.New {
		t.Errorf("first replayed answer %+v", answers[0])
	}
	// The same four answers given straight to the scheduler, at their study days' starts.
	var want srs.Card
	for i, r := range []Review{revs[3], revs[4], revs[5], revs[9]} {
		day := time.UnixMilli(r.ID).UTC().Truncate(24 * time.Hour).Add(-4 * time.Hour)
		if time.UnixMilli(r.ID).UTC().Hour() >= 4 {
			day = day.Add(4 * time.Hour)
		}
		want = sc.ReviewCard("c", want, srs.Rating(r.Ease), day.Add(time.Duration(i)*time.Millisecond))
	}
	if final.State != srs.Review || final.Stability != want.Stability || final.Difficulty != want.Difficulty || final.Reps != 4 {
		t.Errorf("final %+v, want stability %v difficulty %v", final, want.Stability, want.Difficulty)
	}
	last := time.UnixMilli(t0 - 10*dayMS).UTC()
	if !final.LastReview.Equal(last) || !final.Due.After(last.Add(24*time.Hour)) {
		t.Errorf("last review %v due %v", final.LastReview, final.Due)
	}

	// A reset with no answer after it leaves no history: the card is new.
	if _, a := Replay(sc, "c", revs[:3], time.UTC); len(a) != 0 {
		t.Errorf("history kept after a final reset: %d answers", len(a))
	}
	// Without any learning entry, history starts at the first answer.
	if _, a := Replay(sc, "c", []Review{revs[1], revs[9]}, time.UTC); len(a) != 2 {
		t.Errorf("reviews without a learning run: %d answers, want 2", len(a))
	}
}

func TestReplayCountsStudyDaysFrom4AM(t *testing.T) {
	sc := srs.DefaultScheduler()
	sc.Fuzz = false
	at := func(s string) int64 {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm.UnixMilli()
	}
	first := []Review{
		{ID: at("2026-03-01T10:00:00Z"), Ease: 3, Kind: RevLearning},
		{ID: at("2026-03-01T10:10:00Z"), Ease: 3, Kind: RevLearning},
		{ID: at("2026-03-05T23:00:00Z"), Ease: 3, Kind: RevReview, Factor: 2500},
	}
	// 23:00 and 05:00 the next morning are on different study days: a day has passed, which
	// 6 hours of wall-clock time alone would not say.
	nextMorning := append(append([]Review{}, first...), Review{ID: at("2026-03-06T05:00:00Z"), Ease: 3, Kind: RevReview, Factor: 2500})
	beforeFour := append(append([]Review{}, first...), Review{ID: at("2026-03-06T03:00:00Z"), Ease: 3, Kind: RevReview, Factor: 2500})
	a, _ := Replay(sc, "c", nextMorning, time.UTC)
	b, _ := Replay(sc, "c", beforeFour, time.UTC)
	direct := sc.ReviewCard("c", srs.Card{}, srs.Good, time.UnixMilli(first[0].ID))
	direct = sc.ReviewCard("c", direct, srs.Good, time.UnixMilli(first[1].ID))
	direct = sc.ReviewCard("c", direct, srs.Good, time.UnixMilli(first[2].ID))
	sameDay := sc.ReviewCard("c", direct, srs.Good, time.UnixMilli(nextMorning[3].ID))
	if b.Stability != sameDay.Stability {
		t.Errorf("03:00 is the same study day as 23:00: stability %v, want the same-day %v", b.Stability, sameDay.Stability)
	}
	if a.Stability == b.Stability {
		t.Errorf("05:00 the next morning counted as the same day (stability %v)", a.Stability)
	}
	// In a time zone 5 hours behind UTC, 05:00Z is 00:00 local: the same study day again.
	ny := time.FixedZone("UTC-5", -5*3600)
	c, _ := Replay(sc, "c", nextMorning, ny)
	if c.Stability != b.Stability {
		t.Errorf("UTC-5: stability %v, want the same-day %v", c.Stability, b.Stability)
	}
}
