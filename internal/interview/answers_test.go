package interview

import (
	"slices"
	"testing"

	"github.com/rehearse/rehearse/internal/deck"
)

// realCard loads a card of the shipped deck, so these cases test what users meet.
func realCard(t *testing.T, id string) *deck.Card {
	t.Helper()
	d, err := deck.LoadDir("../../content", deck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := d.Card(id)
	if !ok {
		t.Fatalf("no card %s in the shipped deck", id)
	}
	return c
}

// Real answers, typed (or transcribed) as a candidate would say them, with the ticks expected.
// Indexes are cheat-sheet bullets in card order.
func TestRealAnswersTicks(t *testing.T) {
	mig := realCard(t, "eager-to-cooperative-migration")
	eager := realCard(t, "eager-pain-at-scale")
	cases := []struct {
		name   string
		card   *deck.Card
		depth  string
		answer string
		ticks  []int // covered points
		flags  []int // flagged pitfalls
	}{
		{"migration right", mig, "deeper",
			"Do it in two rolling bounces. In the first bounce list both assignors, cooperative sticky and range; every member still runs eager because range only supports eager. " +
				"Then remove the eager assignor in a second bounce, so the bounced members switch to cooperative. " +
				"If you skip bounce 1 the new members share no assignor with the old ones and cannot join the group.",
			[]int{0, 1, 3}, nil},
		{"the issue's sentence", mig, "deeper", "remove the eager assignor in a second bounce", []int{1}, nil},
		{"migration partial", mig, "basics", "You change the assignor to cooperative sticky and restart everything once.", nil, nil},
		{"migration wrong", mig, "basics", "Set group.protocol to consumer and the broker handles the rest with KIP-848.", nil, nil},
		{"empty", mig, "basics", "", nil, nil},
		{"eager right", eager, "deeper",
			"Under eager rebalancing every member revokes all its partitions before joining, so the whole group stops until the sync finishes. " +
				"The pause lasts as long as the slowest member takes to rejoin, up to max.poll.interval.ms. " +
				"A rolling restart of N members can cost 2N rebalances. The fixes were static membership, KIP-345, and cooperative rebalancing, KIP-429.",
			[]int{0, 1, 3, 5}, nil},
		{"eager partial", eager, "deeper", "Everybody revokes all partitions and processing stops for the whole group.", []int{0}, nil},
		{"eager wrong, says a pitfall", eager, "deeper", "Only the consumer that joined or left pauses; the others keep processing.", nil, []int{0}},
	}
	for _, c := range cases {
		ch := CheckAnswer(c.card, c.depth, c.answer)
		if got := ch.Covered(); !slices.Equal(got, c.ticks) {
			for _, i := range ch.Points {
				b := ch.Bullets[i]
				t.Logf("  point %d: matched %v of %v need %d label %q made %v", i, b.Matched, b.Terms, b.Need, b.Label, b.LabelMade)
			}
			t.Errorf("%s: ticked %v, want %v", c.name, got, c.ticks)
		}
		if got := ch.Flagged(); !slices.Equal(got, c.flags) {
			t.Errorf("%s: flagged %v, want %v", c.name, got, c.flags)
		}
	}
}

// The depth decides the key points: basics asks for fewer than go deeper, and every point of
// basics is one of the card's bullets.
func TestPointsFollowDepth(t *testing.T) {
	for _, id := range []string{"eager-to-cooperative-migration", "eager-pain-at-scale"} {
		c := realCard(t, id)
		basics, solid, deeper := Points(c, "basics"), Points(c, "solid"), Points(c, "deeper")
		if len(deeper) != len(c.Answer) || len(basics) < 2 || len(basics) >= len(deeper) || len(solid) < len(basics) {
			t.Errorf("%s: basics %v solid %v deeper %v", id, basics, solid, deeper)
		}
	}
}

// Synonyms and ordinals meet; stems never reach what the page shows.
func TestSynonymsAndSurfaces(t *testing.T) {
	bc := CheckBullet("Bounce 2: remove the eager assignor", "in the second restart we drop the eager assignor")
	if !bc.Covered || !bc.LabelMade {
		t.Fatalf("second restart + drop: %+v", bc)
	}
	for _, w := range append(bc.Terms, bc.Matched...) {
		if w == "bounc" || w == "remov" {
			t.Fatalf("a stem reached the display: %v", bc.Terms)
		}
	}
	if CheckBullet("Bounce 2: remove the eager assignor", "bounce once and keep the eager assignor").LabelMade {
		t.Fatal("bounce without a second made the label")
	}
}
