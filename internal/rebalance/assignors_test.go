package rebalance

import (
	"errors"
	"strings"
	"testing"
)

// The two-bounce migration: every round of the first bounce is eager (range is still in every
// list), the group is cooperative once the second bounce is over.
func TestMigrationTwoBounces(t *testing.T) {
	s := pre(t, "consumer-migrate-cooperative", "")
	r := run(t, s)
	second := s.Events[1].AtMS
	lastBack := second + 3*s.Events[1].IntervalMS + s.Events[1].DownMS // m4 returns
	var firstN, coopAfter, mixed int
	for _, rd := range r.Rounds {
		switch {
		case rd.StartMS > second+s.Events[1].DownMS && rd.StartMS < lastBack:
			// m1 is back on cooperative-sticky alone and keeps what it owns: the round is still
			// eager while others still list range, but no longer stops the whole group.
			if rd.Protocol == "eager" {
				mixed++
			}
			if rd.StopTheWorld {
				t.Errorf("bounce 2, round %d stops the world with m1 back on cooperative-sticky", rd.Generation)
			}
		case rd.StartMS < second:
			firstN++
			if rd.Protocol != "eager" || !rd.StopTheWorld {
				t.Errorf("first bounce: round %d is %s (stop the world %v), want eager", rd.Generation, rd.Protocol, rd.StopTheWorld)
			}
		case rd.StartMS >= lastBack:
			coopAfter++
			if rd.Protocol != "cooperative" || rd.StopTheWorld || rd.Assignor != "cooperative-sticky" {
				t.Errorf("after the second bounce: round %d is %s/%s, want cooperative/cooperative-sticky", rd.Generation, rd.Protocol, rd.Assignor)
			}
		}
	}
	if firstN != 8 || coopAfter == 0 || mixed == 0 {
		t.Errorf("%d rounds in the first bounce (want 8: a leave and a join each), %d mixed, %d cooperative after", firstN, mixed, coopAfter)
	}
	// The vote switches to cooperative-sticky once every member lists it (m4 gone, m1-m3 back).
	if a := r.Rounds[0].Assignor; a != "range" {
		t.Errorf("first round assignor %s, want range", a)
	}
	for _, ev := range r.Events {
		if ev.Type == "rejected" {
			t.Errorf("the safe migration rejected %s at %d", ev.Member, ev.AtMS)
		}
	}
	if len(r.InvariantFailures) > 0 {
		t.Errorf("invariants: %v", r.InvariantFailures)
	}
}

// The one-step mistake: members coming back with only cooperative-sticky share nothing with
// the range-only group and are refused, until the group has emptied.
func TestMigrationOneStepRejected(t *testing.T) {
	r := run(t, pre(t, "consumer-migrate-one-step", ""))
	var rejected []string
	for _, ev := range r.Events {
		if ev.Type == "rejected" {
			rejected = append(rejected, ev.Member)
			if !strings.Contains(ev.Reason, "INCONSISTENT_GROUP_PROTOCOL") {
				t.Errorf("reason %q", ev.Reason)
			}
		}
	}
	if strings.Join(rejected, ",") != "m1,m2,m3" {
		t.Errorf("rejected %v, want m1, m2, m3 (m4 rejoins an empty group)", rejected)
	}
	last := r.Rounds[len(r.Rounds)-1]
	if len(last.Assignment) != 1 || len(last.Assignment["m4"]) != 12 {
		t.Errorf("last round %+v: want m4 alone with all 12 partitions", last.Assignment)
	}
}

func TestVoteAndProtocolPerMember(t *testing.T) {
	// Two members prefer roundrobin, one range; all support both: roundrobin wins the vote.
	s := pre(t, "consumer-join", "eager")
	s.Assignors = map[string][]string{"m1": {"roundrobin", "range"}, "m2": {"roundrobin", "range"}, "m3": {"range", "roundrobin"}}
	s.Events[0].Assignors = []string{"roundrobin", "range"}
	r := run(t, s)
	if a := r.Rounds[0].Assignor; a != "roundrobin" {
		t.Errorf("vote chose %s, want roundrobin (3 votes to 1)", a)
	}
	s.Events[0].Assignors = []string{"range", "roundrobin"} // 2 votes to 2: the name breaks the tie
	if a := run(t, s).Rounds[0].Assignor; a != "range" {
		t.Errorf("tied vote chose %s, want range", a)
	}
	// m4 listing only cooperative-sticky while m1-m3 list range: refused.
	s = pre(t, "consumer-join", "eager")
	s.Events[0].Assignors = []string{"cooperative-sticky"}
	r = run(t, s)
	if len(r.Rounds) != 0 || len(r.Events) != 2 || r.Events[1].Type != "rejected" {
		t.Errorf("want m4 rejected and no round: %+v %+v", r.Rounds, r.Events)
	}
	// A cooperative-only member among [cooperative-sticky, range] ones: cooperative-sticky
	// is voted, the round stays eager because the others run EAGER.
	s = pre(t, "consumer-join", "eager")
	s.Assignors = map[string][]string{"m1": {"cooperative-sticky", "range"}, "m2": {"cooperative-sticky", "range"}, "m3": {"cooperative-sticky", "range"}}
	s.Events[0].Assignors = []string{"cooperative-sticky"}
	r = run(t, s)
	if rd := r.Rounds[0]; rd.Assignor != "cooperative-sticky" || rd.Protocol != "eager" {
		t.Errorf("round %s/%s, want eager/cooperative-sticky", rd.Protocol, rd.Assignor)
	}
}

func TestAssignorsBadInputNamesField(t *testing.T) {
	base := `{"kind":"consumer","protocol":"eager","topics":{"t":4},"members":["m1","m2"],"events":[%s]%s}`
	for _, c := range []struct{ events, extra, field string }{
		{``, `,"assignors":{"m1":["range","bogus"]}`, "assignors.m1[1]"},
		{``, `,"assignors":{"m1":["uniform"]}`, "assignors.m1[0]"},
		{``, `,"assignors":{"m1":[]}`, "assignors.m1"},
		{``, `,"assignors":{"m9":["range"]}`, "assignors.m9"},
		{``, `,"assignors":{"m1":["range","range"]}`, "assignors.m1[1]"},
		{`{"at_ms":5,"type":"restart","member":"m1","assignors":["nope"]}`, ``, "events[0].assignors[0]"},
		{`{"at_ms":5,"type":"crash","member":"m1","assignors":["range"]}`, ``, "events[0].assignors"},
		{``, `,"config":{"auto_commit_interval_ms":-1}`, "config.auto_commit_interval_ms"},
		{``, `,"config":{"records_per_sec":-5}`, "config.records_per_sec"},
	} {
		in := strings.Replace(strings.Replace(base, "%s", c.events, 1), "%s", c.extra, 1)
		_, err := Decode(strings.NewReader(in), WebLimits)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s%s: err %v, want a FieldError on %s", c.events, c.extra, err, c.field)
		}
	}
	// KIP-848 has no client-side assignor lists.
	in := `{"kind":"consumer","protocol":"consumer","topics":{"t":4},"members":["m1"],"assignors":{"m1":["range"]}}`
	if _, err := Decode(strings.NewReader(in), WebLimits); err == nil || !strings.HasPrefix(err.Error(), "assignors.m1") {
		t.Errorf("KIP-848 with assignors: %v", err)
	}
}

// A crash re-processes what its partitions brought since the last auto-commit.
func TestReprocessingAfterCrash(t *testing.T) {
	s := pre(t, "consumer-crash", "eager")
	s.Config.AutoCommitIntervalMS, s.Config.RecordsPerSec = i64(1000), i64(100)
	r := run(t, s)
	// m2 holds 3 partitions; each lost at most 1 s of records at 100/s.
	if got := r.Metrics.ReprocessedRecords; got <= 0 || got > 3*100 {
		t.Errorf("reprocessed %d records, want between 1 and 300", got)
	}
	s.Config.AutoCommitIntervalMS = i64(0) // commits only on revoke: everything since it got them
	if got := run(t, s).Metrics.ReprocessedRecords; got != 3*100*10 {
		t.Errorf("without auto-commit: %d records, want 3 partitions x 100/s x 10 s = 3000", got)
	}
	// A clean leave commits on revoke: nothing is processed twice.
	if got := run(t, pre(t, "consumer-leave", "eager")).Metrics.ReprocessedRecords; got != 0 {
		t.Errorf("clean leave reprocessed %d", got)
	}
}
