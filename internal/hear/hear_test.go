package hear

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
)

// These tests run the real programs: espeak-ng speaks an answer, ffmpeg encodes it as the
// browser does (WebM/Opus), and pocketsphinx hears it. Locally they skip when a program is
// missing; under CI (CI=true) that is a failure, as .ci/run installs them.

func need(t *testing.T) Recognizer {
	t.Helper()
	r, err := Find()
	if err == nil {
		_, err = exec.LookPath("espeak-ng")
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: %v; .ci/run must install pocketsphinx pocketsphinx-en-us ffmpeg espeak-ng", err)
		}
		t.Skip(err)
	}
	return r
}

var loadShipped = sync.OnceValues(func() (*deck.Deck, error) { return deckload.Load(content.FS, false) })

func shipped(t *testing.T) *deck.Deck {
	t.Helper()
	d, err := loadShipped()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func card(t *testing.T, id string) *deck.Card {
	t.Helper()
	c, ok := shipped(t).Card(id)
	if !ok {
		t.Fatalf("no card %s", id)
	}
	return c
}

// speak returns text spoken by espeak-ng as WebM/Opus at 32 kbit/s, what voice.js uploads.
func speak(t *testing.T, text string) []byte {
	t.Helper()
	dir := t.TempDir()
	wav, webm := filepath.Join(dir, "a.wav"), filepath.Join(dir, "a.webm")
	if out, err := exec.Command("espeak-ng", "-w", wav, text).CombinedOutput(); err != nil {
		t.Fatalf("espeak-ng: %v %s", err, out)
	}
	if out, err := exec.Command("ffmpeg", "-nostdin", "-loglevel", "error", "-i", wav, "-c:a", "libopus", "-b:a", "32k", webm).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	b, err := os.ReadFile(webm)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The three cards of the measurement, with paraphrases of their solid answers written for this
// test: the same points in other words, as a learner would say them.
var measured = []struct{ id, paraphrase string }{
	{"cooperative-two-rounds", "The old consumer protocol has no idea on the broker side who owns what, and each member gets its assignment on its own. " +
		"If the first round moved a partition directly, the new owner might fetch it while the old owner is still working on it, so two consumers would process the same records. " +
		"So the first round works out the sticky target but holds back every partition that would move. The old owner gives up only those, commits, and joins again straight away. " +
		"Because that join no longer lists them, they are known to be free, and the second round hands them out. Everything else keeps running, and a crash only takes one round."},
	{"max-poll-interval", "In old versions the heartbeat came from the poll call, so a slow batch made the consumer look dead. " +
		"KIP 62 in version 0.10.1 put heartbeats on their own background thread and added a poll deadline, five minutes by default, that checks the consumer makes progress. " +
		"If the application takes longer than that between polls, the member leaves the group and a rebalance gives its partitions to someone else. " +
		"The batch usually completes anyway, but its commit fails with a commit failed exception, and the new owner processes those records again from the last commit. " +
		"When it polls again it rejoins, which is another rebalance. Smaller batches beat a longer interval, since the interval is also the rebalance timeout."},
	{"range-vs-roundrobin", "Both of them are the old eager assignors that run on the group leader. " +
		"Range handles each topic on its own: it sorts the partitions and the members and hands every member a contiguous block, and the first few members get one extra. " +
		"Since the sort order is the same for every topic, the same members win the extra partition on every topic, so with many topics the load gets skewed. " +
		"Round robin puts the partitions of all topics in one list and deals them out one at a time, so counts differ by one at most. " +
		"The good side of range is co-partitioning: the same partition number of two topics goes to the same consumer, which helps joins. Neither one is sticky."},
}

func fraction(r Result) float64 {
	if len(r.KeyPoints) == 0 {
		return 0
	}
	return float64(r.Heard()) / float64(len(r.KeyPoints))
}

// A card's own solid answer, spoken, is heard for at least 80 % of its key points; another
// card's solid answer for at most 25 %. Times are logged, not asserted. Each card is its own
// parallel subtest: pocketsphinx takes a core for seconds, and there are two.
func TestHearOwnAnswerNotAnother(t *testing.T) {
	t.Parallel()
	r := need(t)
	ctx := context.Background()
	for i, m := range measured {
		t.Run(m.id, func(t *testing.T) {
			t.Parallel()
			c := card(t, m.id)
			own, err := r.Hear(ctx, shipped(t), c, "solid", speak(t, c.Solid.Text()))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s own solid answer: %d/%d heard, %.1f s audio, %.1f s to check\n  %s", m.id, own.Heard(), len(own.KeyPoints), own.Seconds, own.Took, own.Transcript)
			if fraction(own) < 0.8 {
				t.Errorf("%s: own answer heard for %d of %d key points, want at least 80 %%", m.id, own.Heard(), len(own.KeyPoints))
			}
			other := card(t, measured[(i+1)%len(measured)].id)
			wrong, err := r.Hear(ctx, shipped(t), c, "solid", speak(t, other.Solid.Text()))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s given %s's answer: %d/%d heard, %.1f s audio, %.1f s to check", m.id, other.ID, wrong.Heard(), len(wrong.KeyPoints), wrong.Seconds, wrong.Took)
			if fraction(wrong) > 0.25 {
				t.Errorf("%s: another card's answer heard for %d of %d key points, want at most 25 %%", m.id, wrong.Heard(), len(wrong.KeyPoints))
			}
		})
	}
}

// Paraphrased answers: measured and logged; each must still be heard for more than the other
// card's answer is, so the check follows meaning rather than the card's exact phrasing.
func TestHearParaphrase(t *testing.T) {
	t.Parallel()
	r := need(t)
	for _, m := range measured {
		t.Run(m.id, func(t *testing.T) {
			t.Parallel()
			c := card(t, m.id)
			res, err := r.Hear(context.Background(), shipped(t), c, "solid", speak(t, m.paraphrase))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s paraphrase: %d/%d heard, %.1f s audio, %.1f s to check\n  %s", m.id, res.Heard(), len(res.KeyPoints), res.Seconds, res.Took, res.Transcript)
			if fraction(res) < 0.5 {
				t.Errorf("%s: paraphrase heard for %d of %d key points, want at least half", m.id, res.Heard(), len(res.KeyPoints))
			}
		})
	}
}

// A file that is not audio is refused with ffmpeg's reason, not a crash or an empty result.
func TestHearRefusesNonAudio(t *testing.T) {
	r := need(t)
	_, err := r.Hear(context.Background(), nil, card(t, "max-poll-interval"), "basics", []byte("not audio at all"))
	if err == nil {
		t.Fatal("non-audio was heard")
	}
}

// Without the programs, Find says exactly what to install.
func TestFindNamesThePackages(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Find()
	if !errors.Is(err, ErrMissing) || err.Error() != "speech checking needs apt-get install pocketsphinx pocketsphinx-en-us ffmpeg" {
		t.Fatalf("Find without programs: %v", err)
	}
}
