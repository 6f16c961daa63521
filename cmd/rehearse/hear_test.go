package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rehearse/rehearse/internal/hear"
)

func runHear(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	err = cmdHear(context.Background(), args, func(string) string { return "" }, stdio{strings.NewReader(""), &out, &errb})
	return out.String(), errb.String(), err
}

// Bad flags are refused with a message naming the flag, before any audio is read.
func TestHearFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--card", "nope", "x.wav"}, `--card: there is no card "nope"`},
		{[]string{"--card", "max-poll-interval", "--depth", "deep", "x.wav"}, "--depth: must be basics, solid or deeper"},
	} {
		_, errs, err := runHear(c.args...)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: err %v stderr %q, want exit 2 and %q", c.args, err, errs, c.msg)
		}
	}
}

// The command prints the JSON the issue asks for, from a WAV spoken by espeak-ng.
func TestHearJSON(t *testing.T) {
	if _, err := hear.Find(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	wav := filepath.Join(t.TempDir(), "a.wav")
	text := "The poll interval is the longest a consumer may go between polls: five minutes by default. Heartbeats run on a background thread, so this is what catches a consumer that is alive but stuck. Exceed it and the consumer leaves the group, its partitions move, and its next commit fails."
	if out, err := exec.Command("espeak-ng", "-w", wav, text).CombinedOutput(); err != nil {
		t.Fatalf("espeak-ng: %v %s", err, out)
	}
	out, errs, err := runHear("--card", "max-poll-interval", "--depth", "basics", "--json", wav)
	if err != nil {
		t.Fatalf("%v: %s", err, errs)
	}
	var res struct {
		KeyPoints []struct {
			Text  string `json:"text"`
			Heard *bool  `json:"heard"`
		} `json:"key_points"`
		Transcript string   `json:"transcript"`
		Seconds    *float64 `json:"seconds"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	heard := 0
	for _, k := range res.KeyPoints {
		if k.Text == "" || k.Heard == nil {
			t.Fatalf("key point without text or heard: %s", out)
		}
		if *k.Heard {
			heard++
		}
	}
	if len(res.KeyPoints) < 2 || heard == 0 || res.Seconds == nil || *res.Seconds < 5 || !strings.Contains(res.Transcript, "consumer") {
		t.Errorf("heard %d of %d: %s", heard, len(res.KeyPoints), out)
	}
}
