package e2e

import (
	"database/sql"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// Kill ends the process with SIGKILL, as a power cut or the OOM killer would: no drain, no
// deferred close.
func (a *App) Kill(t testing.TB) {
	t.Helper()
	if a.cmd.ProcessState != nil {
		return
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("kill: %v", err)
	}
	a.cmd.Wait()
}

// Terminate sends SIGTERM, waits up to 20 s for the drain and returns the exit code.
func (a *App) Terminate(t testing.TB) int {
	t.Helper()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("terminate: %v", err)
	}
	done := make(chan struct{})
	go func() { a.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		a.cmd.Process.Kill()
		<-done
		t.Fatal("rehearse did not stop within 20 s of SIGTERM")
	}
	return a.cmd.ProcessState.ExitCode()
}

// OpenDB opens the data dir's SQLite file read-only, for checks after the app has stopped.
func OpenDB(t testing.TB, dataDir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dataDir, "rehearse.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var cardIDRE = regexp.MustCompile(`(?m)^id:\s*(\S+)\s*$`)

// BundledCardIDs lists the ids of the deck compiled into the binary (content/).
func BundledCardIDs(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../content/*/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no bundled cards found: %v", err)
	}
	var ids []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := cardIDRE.FindSubmatch(b); m != nil {
			ids = append(ids, string(m[1]))
		}
	}
	return ids
}
