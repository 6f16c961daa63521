package interview

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/srs"
)

var now = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)

func card(id, topic string, tags ...string) *deck.Card {
	return &deck.Card{ID: id, Topic: topic, Tags: tags}
}

func testCards() []*deck.Card {
	return []*deck.Card{
		card("a", "Eager", "kafka"), card("b", "Eager", "kafka", "connect"), card("c", "Static", "kafka"),
		card("d", "Static", "streams"), card("e", "Connect", "connect"), card("f", "Connect", "connect"),
	}
}

func ids(cs []*deck.Card) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func reviewed(stability float64, lastDaysAgo, dueInDays float64, lapses int) srs.Card {
	d := func(x float64) time.Duration { return time.Duration(x * 24 * float64(time.Hour)) }
	return srs.Card{State: srs.Review, Stability: stability, Difficulty: 5, Reps: 3, Lapses: lapses,
		LastReview: now.Add(-d(lastDaysAgo)), Due: now.Add(d(dueInDays))}
}

func TestSelectWeakestFirst(t *testing.T) {
	states := map[string]srs.Card{
		"a": reviewed(100, 1, 99, 0), // fresh and strong: last
		"b": reviewed(2, 10, -8, 0),  // long overdue, low R
		"c": reviewed(30, 10, 20, 4), // not due but many lapses
		"d": reviewed(3, 4, -1, 0),   // slightly overdue
		"f": reviewed(50, 2, 48, 0),  // strong
	}
	// e is new: 0.25, between the weak and the strong.
	got, err := Select(testCards(), srs.StatesOf(states), now, Options{N: 6})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"b", "c", "d", "e", "f", "a"}
	if !slices.Equal(ids(got), want) {
		t.Fatalf("order %v, want %v", ids(got), want)
	}
	got, _ = Select(testCards(), srs.StatesOf(states), now, Options{N: 2})
	if !slices.Equal(ids(got), []string{"b", "c"}) {
		t.Fatalf("N=2 gave %v", ids(got))
	}
}

func TestSelectFilters(t *testing.T) {
	got, err := Select(testCards(), srs.States{}, now, Options{N: 20, Topics: []string{"Eager", "Connect"}, Tags: []string{"connect"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(got), []string{"b", "e", "f"}) {
		t.Fatalf("filtered %v", ids(got))
	}
	if _, err := Select(testCards(), srs.States{}, now, Options{N: 3, Tags: []string{"zookeeper"}}); err != ErrNoCards {
		t.Fatalf("empty filter: %v", err)
	}
	for _, n := range []int{0, 21, -1} {
		if _, err := Select(testCards(), srs.States{}, now, Options{N: n}); err == nil {
			t.Errorf("N=%d accepted", n)
		}
	}
}

func TestSelectSeededIgnoresUserData(t *testing.T) {
	deckCards := testCards()
	weak := map[string]srs.Card{"f": reviewed(1, 30, -29, 5)}
	a, _ := Select(deckCards, srs.States{}, now, Options{N: 4, Seeded: true, Seed: 42})
	b, _ := Select(deckCards, srs.StatesOf(weak), now.Add(90*24*time.Hour), Options{N: 4, Seeded: true, Seed: 42})
	if !slices.Equal(ids(a), ids(b)) {
		t.Fatalf("same seed, different users: %v vs %v", ids(a), ids(b))
	}
	if !slices.Equal(ids(deckCards), []string{"a", "b", "c", "d", "e", "f"}) {
		t.Fatal("Select reordered the caller's slice")
	}
	// Some other seed gives another order (the shuffle really depends on the seed).
	differs := false
	for s := uint64(1); s < 20 && !differs; s++ {
		c, _ := Select(deckCards, srs.States{}, now, Options{N: 4, Seeded: true, Seed: s})
		differs = !slices.Equal(ids(a), ids(c))
	}
	if !differs {
		t.Fatal("19 seeds all gave the same set")
	}
	seen := map[string]bool{}
	for _, c := range a {
		if seen[c.ID] {
			t.Fatalf("repeat %s in %v", c.ID, ids(a))
		}
		seen[c.ID] = true
	}
}

func TestFollowUpIndex(t *testing.T) {
	if FollowUpIndex(1, "a", 0) != -1 {
		t.Fatal("no follow-ups should give -1")
	}
	counts := make([]int, 3)
	for s := range uint64(300) {
		i := FollowUpIndex(s, "card", 3)
		if i != FollowUpIndex(s, "card", 3) {
			t.Fatal("not deterministic")
		}
		counts[i]++
	}
	for i, n := range counts {
		if n == 0 {
			t.Errorf("follow-up %d never chosen over 300 seeds", i)
		}
	}
}

func TestKeyTerms(t *testing.T) {
	got := []string{}
	for _, term := range KeyTerms("Raise max.poll.interval.ms (KIP-62) when the processing is slow, and the members revoke partitions") {
		got = append(got, term.String())
	}
	want := []string{"raise", "max.poll.interval.ms", "kip-62", "processing", "slow", "members", "revoke", "partitions"}
	if !slices.Equal(got, want) {
		t.Fatalf("terms %v, want %v", got, want)
	}
	for _, pair := range [][2]string{{"revokes", "revoked"}, {"revoking", "revoke"}, {"processes", "process"}, {"partitions", "partition"}, {"stopped", "stop"}} {
		if stem(pair[0]) != stem(pair[1]) {
			t.Errorf("stem(%q)=%q, stem(%q)=%q", pair[0], stem(pair[0]), pair[1], stem(pair[1]))
		}
	}
}

func TestBulletCoverage(t *testing.T) {
	bullet := "Every member revokes all partitions before rejoining"
	// terms: every? (stop word) → member, revok, partition, rejoin: 4 terms, need 2.
	cases := []struct {
		name, typed string
		covered     bool
	}{
		{"paraphrase", "Each member revoked its partitions first.", true},
		{"two terms", "members rejoin", true},
		{"one stray shared word", "The partitions are spread by the range assignor.", false},
		{"unrelated", "ZooKeeper stores broker metadata and elects the controller.", false},
		{"empty", "", false},
		{"stop words only", "every before all because which", false},
	}
	for _, c := range cases {
		if got := CheckBullet(bullet, c.typed); got.Covered != c.covered {
			t.Errorf("%s: covered=%v (matched %v of %v, need %d), want %v", c.name, got.Covered, got.Matched, got.Terms, got.Need, c.covered)
		}
	}
	// Technical tokens match in either spelling; a one-term bullet needs that term.
	if !CheckBullet("Fixed by KIP-429", "kip 429 fixed that").Covered {
		t.Error("KIP-429 written as 'kip 429' not matched")
	}
	if CheckBullet("Fixed by KIP-429", "kip 415").Covered {
		t.Error("KIP-415 matched KIP-429")
	}
	if !CheckBullet("Tune session.timeout.ms", "raise session.timeout.ms.").Covered {
		t.Error("dotted config name at a sentence end not matched")
	}
	if CheckBullet("Tune max.poll.interval.ms", "raise session.timeout.ms").Covered {
		t.Error("a different config name matched")
	}
}

func TestPitfallFlags(t *testing.T) {
	p := "Saying only the leaving member pauses: every member pauses under eager."
	cases := []struct {
		name, typed string
		flagged     bool
	}{
		{"says it", "Only the leaving member pauses, the rest carry on.", true},
		{"negated", "It is not only the leaving member that pauses.", false},
		{"correction wording", "Every member pauses under eager.", false},
		{"spread over sentences", "The leaving member goes. Only then pauses happen.", false},
		{"one stray word", "A member joins.", false},
		{"empty", "", false},
	}
	for _, c := range cases {
		if got := CheckPitfall(p, c.typed); got.Flagged != c.flagged {
			t.Errorf("%s: flagged=%v (matched %v of %v), want %v", c.name, got.Flagged, got.Matched, got.Telltale, c.flagged)
		}
	}
	// A negative claim is flagged by a negative answer, not by a positive one.
	neg := "Saying no task ever stops: moving tasks stop for two rounds."
	if !CheckPitfall(neg, "With incremental, no task ever stops.").Flagged {
		t.Error("negative claim repeated, not flagged")
	}
	if CheckPitfall(neg, "Moving tasks stop for two rounds.").Flagged {
		t.Error("the correction flagged a negative claim")
	}
	// Quoted phrases of two or more words are the telltale.
	q := `Calling KIP-415 "CooperativeStickyAssignor for Connect": it is a separate assignor.`
	if !CheckPitfall(q, "KIP-415 is basically the CooperativeStickyAssignor for Connect.").Flagged {
		t.Error("quoted phrase not flagged")
	}
	if CheckPitfall(q, "KIP-415 has its own assignor for Connect.").Flagged {
		t.Error("flagged without the quoted phrase")
	}
	// Omissions cannot be seen in typed text.
	if CheckPitfall("Forgetting the sink consumer group: it rebalances too.", "the sink consumer group rebalances").Flagged {
		t.Error("omission pitfall flagged")
	}
}

func TestCheckAnswerIndexes(t *testing.T) {
	c := &deck.Card{
		Answer:   []deck.Block{deck.TextBlock("Every member revokes all partitions"), deck.TextBlock("Nothing is processed until SyncGroup returns")},
		Pitfalls: []deck.Block{deck.TextBlock("Saying only the leaving member pauses.")},
	}
	ch := CheckAnswer(c, "deeper", "Processing waits until SyncGroup returns.")
	if !slices.Equal(ch.Covered(), []int{1}) || len(ch.Flagged()) != 0 {
		t.Fatalf("covered %v flagged %v", ch.Covered(), ch.Flagged())
	}
	if e := CheckAnswer(c, "deeper", ""); len(e.Covered())+len(e.Flagged()) != 0 {
		t.Fatal("empty answer ticked something")
	}
}

func TestScore(t *testing.T) {
	target := 20 * time.Second
	cases := []struct {
		name string
		r    Result
		want float64
	}{
		{"perfect, spoken", Result{Bullets: 4, Covered: 4, Used: 18 * time.Second, Target: target, Spoken: true, Rating: 4}, 100},
		{"half points, 1.5x time, good", Result{Bullets: 4, Covered: 2, Used: 30 * time.Second, Target: target, Spoken: true, Rating: 3}, 30 + 30*0.625 + 10.0*2/3},
		{"rushed: 0.4x time", Result{Bullets: 2, Covered: 2, Used: 8 * time.Second, Target: target, Spoken: true, Rating: 4}, 60 + 15 + 10},
		// Typed: judged on content; the time taken does not count either way.
		{"typed, slow", Result{Bullets: 2, Covered: 2, Used: time.Minute, Target: target, Rating: 4}, 100},
		{"typed, half the points", Result{Bullets: 4, Covered: 2, Used: 2 * time.Second, Target: target, Rating: 3}, 45 + 10.0*2/3},
		{"nothing right", Result{Bullets: 3, Used: time.Minute, Target: target, Spoken: true, Rating: 1}, 0},
		{"pitfalls clamp at 0", Result{Bullets: 3, Covered: 1, Used: target, Target: target, Rating: 1, PitfallsHit: 5}, 0},
		{"one pitfall", Result{Bullets: 2, Covered: 2, Used: target, Target: target, Spoken: true, Rating: 4, PitfallsHit: 1}, 90},
		// The self-rating is at most a tenth: a perfect answer rated Again still scores 90.
		{"perfect, rated again", Result{Bullets: 2, Covered: 2, Used: target, Target: target, Spoken: true, Rating: 1}, 90},
		{"unrated", Result{Bullets: 2, Covered: 2, Used: target, Target: target, Spoken: true}, 90},
		// Follow-ups count: a fifth of the question.
		{"follow-up missed", Result{Bullets: 2, Covered: 2, Used: target, Target: target, Spoken: true, Rating: 4, FollowUpAsked: true}, 80},
		{"follow-up half made", Result{Bullets: 2, Covered: 2, Used: target, Target: target, Spoken: true, Rating: 4, FollowUpAsked: true, FollowUpMade: 0.5}, 90},
		// The case: answered in 1 s with nothing, rated Easy.
		{"empty, easy", Result{Bullets: 3, Used: time.Second, Target: target, Rating: 4, Empty: true}, 10},
		{"empty, good, on time", Result{Bullets: 3, Used: target, Target: target, Rating: 3, Empty: true}, 10.0 * 2 / 3},
		{"empty with no points on the card", Result{Used: target, Target: target, Rating: 4, Empty: true}, 10},
	}
	for _, c := range cases {
		if got := Score(c.r); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if Overall(nil) != 0 || Overall([]float64{100, 50, 0}) != 50 {
		t.Fatal("overall is not the mean")
	}
	// Closeness, not speed: as far under the target loses as much as as far over it.
	for _, d := range []float64{0.3, 0.5, 0.7} {
		under := TimeFactor(time.Duration((1-d)*float64(target)), target)
		over := TimeFactor(time.Duration((1+d)*float64(target)), target)
		if math.Abs(under-over) > 1e-9 || under >= 1 {
			t.Errorf("%.0f %% off the target: under %v, over %v", 100*d, under, over)
		}
	}
	if TimeFactor(0, target) != 0 || TimeFactor(2*target, target) != 0 || TimeFactor(3*target, target) != 0 ||
		TimeFactor(target, target) != 1 || TimeFactor(target*11/10, target) != 1 {
		t.Fatal("time factor bounds")
	}
	if !strings.Contains(ScoreExplanation, "pitfall hit takes 10 off") || !strings.Contains(ScoreExplanation, "at most 10") ||
		!strings.Contains(ScoreExplanation, "judged on content") || !strings.Contains(ScoreExplanation, "at most a tenth") {
		t.Fatal("explanation out of step with the rules")
	}
}

// The level reached follows the go-deeper ladder: the card's own deepest level text reaches 4,
// the basics answer less, nothing reaches 0.
func TestLevel(t *testing.T) {
	c := realCard(t, "eager-pain-at-scale")
	if got := Level(c, c.Deeper[3].Text()); got != 4 {
		t.Errorf("level 4 text: level %d", got)
	}
	if got := Level(c, ""); got != 0 {
		t.Errorf("empty: level %d", got)
	}
	if got := Level(c, "I do not know."); got != 0 {
		t.Errorf("no idea: level %d", got)
	}
	if len(c.FollowUps) > 0 {
		f := c.FollowUps[0]
		if FollowUpMade(f, f.Answer.Text()) != 1 || FollowUpMade(f, "") != 0 {
			t.Error("follow-up made: its own answer is not all of it, or nothing is something")
		}
	}
}

// Speaking: on time within the band, key points heard per week, and readiness as recall times
// speaking, 0 for a topic never recorded.
func TestSpeakingStats(t *testing.T) {
	mon := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC) // a Monday
	takes := []Take{
		{Topic: "A", At: mon, Spoken: 19 * time.Second, Target: 20 * time.Second, Points: 4, Heard: 3},
		{Topic: "A", At: mon.AddDate(0, 0, 6), Spoken: 40 * time.Second, Target: 20 * time.Second, Points: 4, Heard: 1},
		{Topic: "A", At: mon.AddDate(0, 0, 7), Spoken: 20 * time.Second, Target: 20 * time.Second},
	}
	s := SpeakingStats(takes, map[string]float64{"A": 0.8, "B": 0.9}, time.UTC)
	if s.Takes != 3 || s.OnTime != 2 || len(s.Topics) != 2 || len(s.Weeks) != 1 || s.Weeks[0].Points != 8 || s.Weeks[0].Heard != 4 {
		t.Fatalf("%+v", s)
	}
	a, b := s.Topics[0], s.Topics[1]
	// speaking = (2/3 on time + 4/8 heard) / 2 = 7/12; readiness = 0.8 × 7/12
	if math.Abs(a.Readiness-0.8*7.0/12) > 1e-9 || b.Readiness != 0 || b.Recall != 0.9 {
		t.Fatalf("readiness: A %+v, B %+v", a, b)
	}
}

// The strict clock runs out at the target and keeps late text only within the grace; the soft
// clock never runs out.
func TestClock(t *testing.T) {
	shown, target := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC), 10*time.Second
	strict, soft := Clock{Strict: true}, Clock{}
	if strict.RanOut(shown, shown.Add(9*time.Second), target) || !strict.RanOut(shown, shown.Add(target), target) || soft.RanOut(shown, shown.Add(time.Hour), target) {
		t.Fatal("RanOut")
	}
	if used, expired, kept := strict.Used(shown, shown.Add(target+Grace+time.Second), target, "late"); used != target || !expired || kept != "" {
		t.Fatalf("past the grace: %v %v %q", used, expired, kept)
	}
	if got := strict.Remaining(shown, shown.Add(4*time.Second), target); got != 6*time.Second {
		t.Fatalf("remaining %v", got)
	}
}
