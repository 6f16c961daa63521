package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A database written by the first whole app with migrations (commit bd8c7a5, migrations
// 001-003; testdata/upgrade/mkfixture says how first.db was made) opens with today's store:
// every migration since applies, and every row of every table it had is still there with the
// same values, and reads back through the store.
func TestUpgradeFromTheFirstReleaseKeepsEveryRow(t *testing.T) {
	src, err := os.ReadFile("testdata/upgrade/first.db")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rehearse.db")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	before, cols := dumpTables(t, path, nil)
	if len(before["review_log"]) == 0 || len(before["mock_answers"]) == 0 || len(before["users"]) != 2 {
		t.Fatalf("the fixture is not what mkfixture writes: %d reviews, %d mock answers, %d users",
			len(before["review_log"]), len(before["mock_answers"]), len(before["users"]))
	}

	ctx := context.Background()
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatalf("opening the first release's database: %v", err)
	}
	kim, err := db.UserByName(ctx, "kim")
	if err != nil || kim.Settings.NewPerDay != 7 || kim.Settings.TimeZone != "Europe/Paris" || kim.Settings.DefaultDepth != "solid" {
		t.Fatalf("kim after the upgrade: %+v, %v", kim, err)
	}
	if h, err := db.ReviewHistory(ctx, kim.ID, "card-2"); err != nil || len(h) != 2 { // 3 answers, the last undone
		t.Fatalf("kim's history of card-2: %d answers, %v", len(h), err)
	}
	if s, err := db.MockSession(ctx, 1, 1, t0); err != nil || len(s.Answers) != 2 || s.Answers[0].Typed != "members keep their partitions" {
		t.Fatalf("the mock session after the upgrade: %+v, %v", s, err)
	}
	db.Close()

	after, _ := dumpTables(t, path, cols)
	for table, rows := range before {
		if !reflect.DeepEqual(after[table], rows) {
			t.Errorf("%s: %d rows before the upgrade, %d after, or their values changed\nbefore %v\nafter  %v",
				table, len(rows), len(after[table]), rows, after[table])
		}
	}
}

// dumpTables reads every row of every table (but goose's and SQLite's own) as text, sorted
// (a migration may rebuild a table WITHOUT ROWID), and returns the columns it read. Given cols, it reads those tables and columns only.
func dumpTables(t *testing.T, path string, cols map[string][]string) (map[string][]string, map[string][]string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if cols == nil {
		cols = map[string][]string{}
		rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'
			AND name NOT IN ('goose_db_version', 'sqlite_sequence')`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var name string
			rows.Scan(&name)
			cols[name] = nil
		}
		rows.Close()
		for name := range cols {
			r, err := db.Query(`SELECT name FROM pragma_table_info(?)`, name)
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				var c string
				r.Scan(&c)
				cols[name] = append(cols[name], c)
			}
			r.Close()
		}
	}
	out := map[string][]string{}
	for table, cs := range cols {
		rows, err := db.Query(`SELECT ` + strings.Join(cs, ", ") + ` FROM ` + table)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		for rows.Next() {
			vals := make([]any, len(cs))
			ptrs := make([]any, len(cs))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out[table] = append(out[table], fmt.Sprintf("%q", vals))
		}
		rows.Close()
		slices.Sort(out[table])
	}
	return out, cols
}
