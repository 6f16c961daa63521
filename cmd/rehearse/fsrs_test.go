package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runFSRS(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), append([]string{"fsrs"}, args...), func(string) string { return "" }, stdio{strings.NewReader(""), &out, &errb})
	return out.String(), errb.String(), err
}

func TestFSRSOptimizeFitsASimulatedLog(t *testing.T) {
	slow := "1.2,3.5,9,25,5.2,0.6,2.2,0.01,2.2,0.12,1.2,1.1,0.08,0.35,1.3,0.5,2.4,0.4,0.2,0.1,0.35"
	csv, _, err := runFSRS(t, "simulate", "--params", slow, "--cards", "60", "--new-per-day", "10", "--days", "30")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log.csv")
	if err := os.WriteFile(path, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := runFSRS(t, "optimize", path)
	if err != nil {
		t.Fatalf("optimize: %v %s", err, stderr)
	}
	var rep struct {
		Parameters []float64 `json:"parameters"`
		Before     float64   `json:"log_loss_before"`
		After      float64   `json:"log_loss_after"`
		Scored     int       `json:"scored_reviews"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if len(rep.Parameters) != 21 {
		t.Fatalf("%d parameters, want 21:\n%s", len(rep.Parameters), out)
	}
	if !(rep.After < rep.Before) || rep.Scored == 0 {
		t.Errorf("log loss before %v after %v over %d answers: want it lower after", rep.Before, rep.After, rep.Scored)
	}
	// The fitted weights read back into `fsrs loss` give the same loss.
	ws, _ := json.Marshal(rep.Parameters)
	out, _, err = runFSRS(t, "loss", "--params", string(ws), path)
	if err != nil {
		t.Fatal(err)
	}
	var loss struct {
		LogLoss float64 `json:"log_loss"`
	}
	json.Unmarshal([]byte(out), &loss)
	if loss.LogLoss != rep.After {
		t.Errorf("fsrs loss says %v, optimize said %v", loss.LogLoss, rep.After)
	}
}

func TestFSRSOptimizeRefusesBadLogs(t *testing.T) {
	cases := map[string]string{
		"":                "empty file",
		"id,when,grade\n": "no card_id column",
		"card_id,review_time,rating\na,yesterday,3\n":                                      "line 2: review_time",
		"card_id,review_time,rating\na,2025-01-01T09:00:00Z,3\na,2025-01-03T09:00:00Z,5\n": "line 3: rating \"5\"",
		"card_id,review_time,rating\na,2025-01-01T09:00:00Z,3\n":                           "no card was reviewed on two different days",
	}
	for body, want := range cases {
		path := filepath.Join(t.TempDir(), "log.csv")
		os.WriteFile(path, []byte(body), 0o600)
		_, _, err := runFSRS(t, "optimize", path)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("log %q: err %v, want it to say %q", body, err, want)
		}
	}
}
