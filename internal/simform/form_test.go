package simform

import (
	"net/url"
	"testing"

	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/views"
)

// FuzzSimLabForm: the lab's query decoder either names a field or yields scenarios that the
// engine itself accepts under the web limits.
func FuzzSimLabForm(f *testing.F) {
	for _, p := range rebalance.Presets() {
		sc, _ := rebalance.Preset(p.Name)
		f.Add(encodeSimForm(FromScenario(sc)))
	}
	f.Add("kind=consumer&p=eager&p=cooperative&members=3&partitions=6&e0type=config&e0at=5&e0value=4")
	f.Add("kind=connect&p=incremental&members=2&connectors=2&tasks=3&e0type=slow_poll&e0at=1&e0value=1e308")
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return // the handler never sees a query it cannot parse as a form
		}
		labels, scs, fe := Scenarios(FromQuery(q), rebalance.WebLimits)
		if fe != nil {
			if fe.Form == "" && len(fe.Fields) == 0 {
				t.Fatal("refused without a message")
			}
			return
		}
		if len(labels) == 0 || len(labels) != len(scs) {
			t.Fatalf("%d labels for %d scenarios", len(labels), len(scs))
		}
		for _, sc := range scs {
			if err := sc.Validate(rebalance.WebLimits); err != nil {
				t.Fatalf("the form accepted a scenario the engine refuses: %v", err)
			}
		}
	})
}

func encodeSimForm(f views.SimForm) string {
	q := url.Values{"kind": {f.Kind}, "members": {f.Members}, "partitions": {f.Partitions},
		"connectors": {f.Connectors}, "tasks": {f.Tasks}, "duration": {f.Duration}}
	for p, on := range f.Protocols {
		if on {
			q.Add("p", p)
		}
	}
	if f.Static {
		q.Set("static", "on")
	}
	return q.Encode()
}

// A refused form names the field at fault, an event's by the row it was submitted in, and the
// short-link query of a form reads back as the same form.
func TestScenariosNameTheField(t *testing.T) {
	q, _ := url.ParseQuery("kind=consumer&p=eager&members=3&partitions=0&e4type=config&e4at=x&e4value=2")
	_, _, fe := Scenarios(FromQuery(q), rebalance.WebLimits)
	if fe == nil || fe.Fields["partitions"] == "" || fe.Fields["e4at"] == "" {
		t.Fatalf("refusal = %+v, want messages at partitions and e4at", fe)
	}
	q, _ = url.ParseQuery("kind=connect&p=cooperative&members=2&connectors=1&tasks=2")
	if _, _, fe := Scenarios(FromQuery(q), rebalance.WebLimits); fe == nil || fe.Fields["p"] == "" {
		t.Fatalf("cooperative for Connect: %+v, want a message at p", fe)
	}
	sc, _ := rebalance.Preset("consumer-rolling-restart")
	share := ShareQuery(FromScenario(sc), "7")
	again := ShareQuery(FromQuery(share), share.Get("t"))
	if share.Encode() != again.Encode() || share.Get("t") != "7" {
		t.Fatalf("share query does not read back:\n%s\n%s", share.Encode(), again.Encode())
	}
	if len(ShareID(share.Encode())) != 16 || ShareID(share.Encode()) != ShareID(again.Encode()) {
		t.Fatal("the same scenario got different short ids")
	}
}
