package rebalance

import (
	"errors"
	"slices"
	"testing"
)

func TestWhatIfResizeKeepsNamedMembers(t *testing.T) {
	sc, _ := Preset("consumer-static-restart") // m1..m4; m2 restarts
	get := func(v map[string]string) func(string) string { return func(k string) string { return v[k] } }
	w, asked, err := ParseWhatIf(get(map[string]string{"members": "1", "processing_ms": "2000"}), WebLimits)
	if err != nil || !asked {
		t.Fatalf("parse: %v %v", asked, err)
	}
	out, err := w.Apply(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Members, []string{"m2"}) || *out.Config.ProcessingMS != 2000 {
		t.Fatalf("members %v, processing %d: want [m2] (the restarted one stays) and 2000", out.Members, *out.Config.ProcessingMS)
	}
	join, _ := Preset("consumer-join") // m1..m3; m4 joins
	w, _, _ = ParseWhatIf(get(map[string]string{"members": "5"}), WebLimits)
	out, err = w.Apply(join)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Members, []string{"m1", "m2", "m3", "m5", "m6"}) {
		t.Fatalf("grown members %v: want m4 left for the joiner", out.Members)
	}
	if err := out.WithDefaults().Validate(WebLimits); err != nil {
		t.Fatalf("grown scenario invalid: %v", err)
	}
}

func TestWhatIfRefusals(t *testing.T) {
	conn, _ := Preset("connect-worker-bounce")
	for _, c := range []struct {
		q     map[string]string
		field string
	}{
		{map[string]string{"members": "0"}, "members"},
		{map[string]string{"members": "201"}, "members"},
		{map[string]string{"revoke_ms": "-1"}, "revoke_ms"},
		{map[string]string{"processing_ms": "1.5"}, "processing_ms"},
	} {
		_, _, err := ParseWhatIf(func(k string) string { return c.q[k] }, WebLimits)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%v: %v, want an error on %s", c.q, err, c.field)
		}
	}
	w, _, _ := ParseWhatIf(func(k string) string { return map[string]string{"processing_ms": "10"}[k] }, WebLimits)
	if _, err := w.Apply(conn); err == nil {
		t.Error("processing_ms accepted for Connect")
	}
}

func TestBeyondWarnsOfLateRestarts(t *testing.T) {
	sc, _ := Preset("consumer-rolling-restart") // 4 members, 30 s apart from 10 s, 180 s
	if b := sc.Beyond(); len(b) != 0 {
		t.Fatalf("the preset fits its run: %v", b)
	}
	sc.Members = members(6, "m")
	sc.DurationMS = 80_000
	b := sc.Beyond()
	if len(b) != 1 || !slices.Contains([]string{b[0]}, "The rolling restart at 10 s restarts 6 members 30 s apart: 3 of them would restart after the run ends at 80 s; run at least 200 s to see it all.") {
		t.Fatalf("warnings %q", b)
	}
}
