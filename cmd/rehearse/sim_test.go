package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func runSim(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := cmdSim(context.Background(), args, func(string) string { return "" }, stdio{strings.NewReader(stdin), &out, &errb})
	return out.String(), errb.String(), err
}

func TestSimList(t *testing.T) {
	out, _, err := runSim(t, "", "--list")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"consumer-join", "consumer-static-restart", "connect-worker-bounce", "connect-set-tasks"} {
		if !strings.Contains(out, name) {
			t.Errorf("--list lacks %s:\n%s", name, out)
		}
	}
}

func TestSimPresetJSONContract(t *testing.T) {
	out, _, err := runSim(t, "", "--preset", "consumer-join", "--protocol", "cooperative")
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	for _, k := range []string{"rounds", "timeline", "metrics", "events", "members", "items"} {
		if _, ok := res[k]; !ok {
			t.Errorf("result lacks %q", k)
		}
	}
	rounds := res["rounds"].([]any)
	if len(rounds) != 2 {
		t.Fatalf("cooperative join: %d rounds", len(rounds))
	}
	for _, k := range []string{"generation", "trigger", "start_ms", "end_ms", "stop_the_world", "assignment", "revoked", "added"} {
		if _, ok := rounds[0].(map[string]any)[k]; !ok {
			t.Errorf("round lacks %q", k)
		}
	}
	seg := res["timeline"].([]any)[0].(map[string]any)["segments"].([]any)[0].(map[string]any)
	for _, k := range []string{"from_ms", "to_ms", "state", "owner"} {
		if _, ok := seg[k]; !ok {
			t.Errorf("segment lacks %q", k)
		}
	}
	m := res["metrics"].(map[string]any)
	for _, k := range []string{"rebalances", "stop_the_world_rebalances", "availability", "downtime_item_ms", "max_pause_ms", "moved", "wasted_moves", "time_to_stable_ms", "violations"} {
		if _, ok := m[k]; !ok {
			t.Errorf("metrics lack %q", k)
		}
	}
}

func TestSimFlags(t *testing.T) {
	out, _, err := runSim(t, "", "--preset", "consumer-crash", "--members", "6", "--partitions", "30", "--static", "--seed", "3", "--format", "table")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "6 members, 30 items") || !strings.Contains(out, "static members") {
		t.Errorf("table:\n%s", out)
	}
}

func TestSimStdinAndErrors(t *testing.T) {
	good := `{"kind":"consumer","protocol":"eager","topics":{"t":4},"members":["a","b"],"events":[{"at_ms":1000,"type":"leave","member":"b"}],"duration_ms":20000}`
	if _, _, err := runSim(t, good); err != nil {
		t.Fatalf("good scenario: %v", err)
	}
	for in, field := range map[string]string{
		`{"kind":"consumer","topics":{"t":4},"members":["a"],"colour":"red"}`:                                     "colour",
		`{"kind":"consumer","topics":{"t":4},"members":["a"],"events":[{"at_ms":-5,"type":"join","member":"b"}]}`: "events[0].at_ms",
		`{"kind":"consumer","topics":{"t":4`:                                                                      "scenario",
	} {
		_, stderr, err := runSim(t, in)
		var ee exitError
		if !errors.As(err, &ee) || ee.code == 0 {
			t.Errorf("%s: want a non-zero exit, got %v", in, err)
		}
		if !strings.Contains(stderr, field+":") {
			t.Errorf("%s: stderr %q does not name %s", in, stderr, field)
		}
	}
	if _, stderr, err := runSim(t, "", "--preset", "nope"); err == nil || !strings.Contains(stderr, `unknown preset "nope"`) {
		t.Errorf("unknown preset: %v %q", err, stderr)
	}
	if _, stderr, err := runSim(t, "", "--preset", "connect-add-worker", "--protocol", "cooperative"); err == nil || !strings.Contains(stderr, "--protocol") {
		t.Errorf("bad protocol for connect: %v %q", err, stderr)
	}
}
