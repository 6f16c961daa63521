package anki

import (
	"archive/zip"
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func zipOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// collection builds a schema-11 collection with one Basic note, then lets edit change it.
func collection(t *testing.T, edit string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.anki2")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := schema11 + `
INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}',
  '{"5": {"name": "Basic", "type": 0, "tmpls": [{}]}}', '{"1": {"name": "Default"}}', '{}', '{}');
INSERT INTO notes VALUES (7, 'g', 5, 0, 0, '', 'front' || char(31) || 'back', 'front', 0, 0, '');
INSERT INTO cards VALUES (70, 7, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '');
` + edit
	if _, err := db.Exec(stmts); err != nil {
		t.Fatal(err)
	}
	db.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHostilePackagesRefusedInOneLine(t *testing.T) {
	small := DefaultLimits
	small.MaxEntries = 5
	small.MaxField = 1 << 10
	bomb := bytes.Repeat([]byte{0}, 4<<20) // over 1 MiB, so the expansion ratio is checked
	many := map[string][]byte{"collection.anki2": collection(t, "")}
	for i := range 10 {
		many[string(rune('a'+i))] = nil
	}
	tests := []struct {
		name string
		pkg  []byte
		lim  Limits
		want string
	}{
		{"not a zip", []byte("front\tback\n"), DefaultLimits, "not an Anki package: the file is not a zip archive"},
		{"no collection", zipOf(t, map[string][]byte{"notes.txt": []byte("x")}), DefaultLimits, "has no collection.anki2"},
		{"zip bomb", zipOf(t, map[string][]byte{"collection.anki2": bomb}), DefaultLimits, "(a zip bomb?)"},
		{"too many files", zipOf(t, many), small, "holds 11 files (at most 5)"},
		{"unknown package version", zipOf(t, map[string][]byte{"meta": {0x08, 0x09}, "collection.anki21b": nil}), DefaultLimits, "unknown Anki package version 9"},
		{"unknown schema", zipOf(t, map[string][]byte{"collection.anki2": collection(t, "UPDATE col SET ver = 99;")}), DefaultLimits, "unknown Anki collection schema 99"},
		{"huge field", zipOf(t, map[string][]byte{"collection.anki2": collection(t, "UPDATE notes SET flds = 'f' || char(31) || hex(zeroblob(2000));")}), small, "refused: field 2 of note 7"},
		{"view for a table", zipOf(t, map[string][]byte{"collection.anki2": collection(t,
			"DROP TABLE revlog; CREATE VIEW revlog AS WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n) SELECT x AS id, 0 AS cid, 0 AS ease, 0 AS type, 0 AS factor, 0 AS time FROM n;")}),
			DefaultLimits, "not an Anki collection: revlog is not a table"},
		{"not sqlite", zipOf(t, map[string][]byte{"collection.anki2": []byte("hello")}), DefaultLimits, "not an Anki collection"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(context.Background(), bytes.NewReader(tc.pkg), int64(len(tc.pkg)), t.TempDir(), tc.lim)
			if err == nil {
				t.Fatal("accepted")
			}
			if !IsRefusal(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q (refusal %v), want one line with %q", err, IsRefusal(err), tc.want)
			}
		})
	}
	// The same collection without the hostile edit reads.
	ok := zipOf(t, map[string][]byte{"collection.anki2": collection(t, "")})
	p, err := Read(context.Background(), bytes.NewReader(ok), int64(len(ok)), t.TempDir(), small)
	if err != nil || len(p.Notes) != 1 || p.Notes[0].Fields[1] != "back" {
		t.Fatalf("plain collection: %v %+v", err, p)
	}
}
