package store

import (
	"context"
	"strings"
	"testing"
)

// TestStudyPageQueriesUseIndexes: the two look-ups the study page makes on every view read an
// index range of one user's rows, rather than scanning and sorting every answer the user gave
// (migrations 011 and 012; the count reads its index alone).
func TestStudyPageQueriesUseIndexes(t *testing.T) {
	db := openTest(t)
	// Each query must search the index made for it, on the columns it filters by: any index on
	// user_id alone would still read every answer the user ever gave.
	plans := map[string]struct{ sql, want string }{
		"latest study answer": {lastStudyReviewSQL, "SEARCH review_log USING INDEX review_log_user_id (user_id=?)"},
		"new cards today": {`SELECT count(DISTINCT card_id) FROM review_log
			WHERE user_id = ? AND reviewed_at >= ? AND state_before = 0 AND mode = 'study' AND undone = 0`,
			"SEARCH review_log USING COVERING INDEX review_log_new_study (user_id=? AND reviewed_at>?)"},
	}
	for name, q := range plans {
		rows, err := db.r.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q.sql, 1, 0)
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
		if strings.Contains(got, "ORDER BY") || strings.Contains(got, "SCAN review_log") || !strings.Contains(got, q.want) {
			t.Errorf("%s: plan %q, want %q with no scan or sort", name, got, q.want)
		}
	}
}
