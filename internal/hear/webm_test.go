package hear

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A live WebM (no duration, as MediaRecorder writes) gets one that ffprobe reads back; a file
// that has one, or is not WebM, is left alone.
func TestWithDuration(t *testing.T) {
	for _, p := range []string{"ffmpeg", "ffprobe", "espeak-ng"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal(err)
			}
			t.Skip(err)
		}
	}
	dir := t.TempDir()
	wav, live := filepath.Join(dir, "a.wav"), filepath.Join(dir, "live.webm")
	run := func(name string, args ...string) string {
		out, err := exec.Command(name, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v %s", name, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("espeak-ng", "-w", wav, "Only the moving partitions pause, and never two owners at once.")
	run("ffmpeg", "-nostdin", "-loglevel", "error", "-i", wav, "-c:a", "libopus", "-b:a", "32k", "-f", "webm", "-live", "1", live)
	probe := func(path string) string {
		return run("ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path)
	}
	if got := probe(live); got != "N/A" {
		t.Fatalf("the live file already has a duration: %s", got)
	}
	b, _ := os.ReadFile(live)
	fixed := filepath.Join(dir, "fixed.webm")
	os.WriteFile(fixed, WithDuration(b, 3250*time.Millisecond), 0o600)
	got, err := strconv.ParseFloat(probe(fixed), 64)
	if err != nil || got < 3.2 || got > 3.3 {
		t.Fatalf("duration after the fix: %v %v", got, err)
	}
	again, _ := os.ReadFile(fixed)
	if string(WithDuration(again, time.Second)) != string(again) {
		t.Error("a file with a duration was changed")
	}
	if junk := []byte("RIFF not webm"); string(WithDuration(junk, time.Second)) != string(junk) {
		t.Error("a file that is not WebM was changed")
	}
}
