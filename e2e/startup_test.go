package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runServe runs `rehearse serve` on dataDir expecting it to refuse to start; it returns the exit
// code and what it wrote to stderr.
func runServe(t *testing.T, dataDir string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath, "serve", "--addr", "127.0.0.1:0", "--data", dataDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("serve on %s did not refuse to start: it ran until the timeout", dataDir)
	}
	if err == nil {
		t.Fatalf("serve on %s exited 0, want a refusal", dataDir)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

// Issue 12, finding 10: a second server on one data directory used to start without complaint
// (doubling the login allowance). It must refuse, naming the running server's pid.
func TestSecondServerOnSameDataDirRefused(t *testing.T) {
	parallelTest(t)
	app := StartApp(t, "")
	code, stderr := runServe(t, app.DataDir)
	pid := strconv.Itoa(app.cmd.Process.Pid)
	if code == 0 || !strings.Contains(stderr, "pid "+pid) || !strings.Contains(stderr, "already using the data directory") {
		t.Fatalf("second server: exit %d, stderr %q; want a refusal naming pid %s", code, stderr, pid)
	}
	// The first one is unharmed and, once stopped, frees the directory.
	if resp := Get(t, app.URL+"/readyz"); resp.StatusCode != 200 {
		t.Fatalf("first server after the refused second: /readyz %d", resp.StatusCode)
	}
	if code := app.Terminate(t); code != 0 {
		t.Fatalf("stop: exit %d", code)
	}
	again := StartApp(t, app.DataDir)
	again.Stop()
}

// `rehearse serve` runs PRAGMA quick_check at start and refuses a damaged file with a message
// that says what to do.
func TestCorruptDatabaseRefusedAtStart(t *testing.T) {
	parallelTest(t)
	dir := t.TempDir()
	AddUser(t, dir, "ada", "analytical-engine", true)
	path := filepath.Join(dir, "rehearse.db")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 4*4096 {
		t.Fatalf("database only %d bytes", len(b))
	}
	// Scribble over the b-tree pages after the schema page, as a bad disk or a torn copy would.
	for i := 4096; i < len(b); i++ {
		if i%4096 < 200 {
			b[i] = byte(i*7 + 13)
		}
	}
	if err := os.WriteFile(path, b, 0o640); err != nil {
		t.Fatal(err)
	}
	code, stderr := runServe(t, dir)
	if code == 0 || !strings.Contains(stderr, "damaged") || !strings.Contains(stderr, "backup") {
		t.Fatalf("corrupt file: exit %d, stderr %q; want a refusal saying it is damaged", code, stderr)
	}
}
