package content_test

import (
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
)

// Every bundled card opens its explanation with a model answer for the deeper tier (see
// docs/card-format.md): prose that fits the card's deeper clock, 10% slack, like the other
// spoken answers, and names no code.
func TestEveryCardHasAModelAnswer(t *testing.T) {
	d, err := deck.Load(content.FS, deck.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	const heading = "## Explanation\n\n### Model answer (about 90 s)\n\n"
	for _, c := range d.Cards {
		src, err := fs.ReadFile(content.FS, c.File)
		if err != nil {
			t.Fatal(err)
		}
		_, rest, ok := strings.Cut(string(src), heading)
		if !ok {
			t.Errorf("%s: the explanation does not open with %q", c.File, strings.TrimSpace(heading[strings.Index(heading, "###"):]))
			continue
		}
		answer, _, _ := strings.Cut(rest, "\n#")
		most := int(c.Timing.Deeper * deck.SpeakingWPM * 110 / (100 * time.Minute))
		if n := deck.SpokenWords(answer); n > most || n < most/2 {
			t.Errorf("%s: model answer runs %d words; want about %d, at most %d", c.File, n, most*100/110, most)
		}
		if strings.Contains(answer, "`") {
			t.Errorf("%s: model answer holds code, which reads badly aloud", c.File)
		}
	}
}
