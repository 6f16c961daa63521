package store

import (
	"context"
	"strings"
	"testing"
)

// TestStudyPageQueriesUseIndexes: the two look-ups the study page makes on every view read an
// index range of one user's rows, rather than scanning and sorting every answer the user gave
// (migration 011).
func TestStudyPageQueriesUseIndexes(t *testing.T) {
	db := openTest(t)
	plans := map[string]string{
		"latest study answer": lastStudyReviewSQL,
		"new cards today": `SELECT count(DISTINCT card_id) FROM review_log
			WHERE user_id = ? AND reviewed_at >= ? AND state_before = 0 AND mode = 'study' AND undone = 0`,
	}
	for name, q := range plans {
		rows, err := db.r.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		got := strings.Join(plan, "; ")
		if strings.Contains(got, "ORDER BY") || !strings.Contains(got, "SEARCH review_log USING INDEX") {
			t.Errorf("%s: plan %q, want an index search with no sort", name, got)
		}
	}
}
