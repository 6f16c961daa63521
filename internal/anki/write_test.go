package anki

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

func TestWriteReadsBackWithSQLite(t *testing.T) {
	sqlite3, err := exec.LookPath("sqlite3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("sqlite3 is needed")
		}
		t.Skip("sqlite3 not installed")
	}
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	sc := srs.DefaultScheduler()
	s1 := sc.ReviewCard("b", srs.Card{}, srs.Good, now.Add(-48*time.Hour))
	s2 := sc.ReviewCard("b", s1, srs.Easy, now.Add(-47*time.Hour))
	cards := []ExportCard{
		{ID: "a", Topic: "Kafka", Tags: []string{"acks"}, Front: "<div>What is acks?</div>", Back: "<ul><li>leader waits</li></ul>"},
		{ID: "b", Topic: "Connect", Front: "<div>Tab\tand \"quotes\"</div>", Back: "<p>x</p>", State: &s2,
			Answers: []Answered{{At: now.Add(-48 * time.Hour), Rating: srs.Good, Before: srs.Card{}, After: s1}, {At: now.Add(-47 * time.Hour), Rating: srs.Easy, Before: s1, After: s2}}},
	}
	var buf bytes.Buffer
	if err := Write(context.Background(), &buf, cards, now, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		os.WriteFile(filepath.Join(dir, f.Name), b, 0o644)
	}
	query := func(q string) string {
		out, err := exec.Command(sqlite3, filepath.Join(dir, "collection.anki2"), q).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", q, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	notes := query("SELECT replace(flds, char(31), ' || ') || ' [' || trim(tags) || ']' FROM notes ORDER BY id")
	want := "<div>What is acks?</div> || <ul><li>leader waits</li></ul> [acks]\n<div>Tab\tand \"quotes\"</div> || <p>x</p> []"
	if notes != want {
		t.Errorf("notes:\n%s\nwant:\n%s", notes, want)
	}
	if got := query("SELECT ver FROM col"); got != "11" {
		t.Errorf("schema %s", got)
	}
	if got := query("SELECT count(*) || ' ' || group_concat(ease) FROM revlog"); got != "2 3,4" {
		t.Errorf("revlog %s", got)
	}
	if got := query("SELECT type || ' ' || queue FROM cards ORDER BY id"); got != "0 0\n2 2" {
		t.Errorf("card types %q", got)
	}
	if got := query("SELECT integrity_check FROM pragma_integrity_check"); got != "ok" {
		t.Errorf("integrity %s", got)
	}

	// And the reader takes the writer's package back: same notes, same decks.
	p, err := Read(context.Background(), bytes.NewReader(buf.Bytes()), int64(buf.Len()), t.TempDir(), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	back, _ := Convert(p)
	if len(back) != 2 || back[0].Question != "What is acks?" || back[1].Topic != "Rehearse / Connect" || len(p.Revlog) != 2 {
		t.Errorf("read back %+v", back)
	}
}
