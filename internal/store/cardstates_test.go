package store

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/srs"
)

// seedStates writes n card states for the user straight into card_states, as bench/run.sh's
// users have after the rating runs (ids as bench/gendeck names them).
func seedStates(t *testing.T, db *DB, uid int64, n int) {
	t.Helper()
	ctx := context.Background()
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for i := range n {
		c := srs.Card{State: srs.State(1 + i%3), Step: i % 2, Stability: 1 + float64(i)/7, Difficulty: 5.5,
			Due: t0.Add(time.Duration(i%97-48)*time.Hour + time.Duration(i)*time.Millisecond), LastReview: t0, Reps: 1 + i%9, Lapses: i % 2}
		if _, err := tx.ExecContext(ctx, upsertCardSQL, uid, fmt.Sprintf("gen-%04d", i), c.State, c.Step,
			c.Stability, c.Difficulty, ms(c.Due), ms(c.LastReview), c.Reps, c.Lapses); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// heapAfter returns the live heap bytes once build's results are made, with the results
// still held.
func heapAfter(loads int, build func() any) (before, after uint64) {
	kept := make([]any, loads)
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	before = m.HeapAlloc
	for i := range kept {
		kept[i] = build()
	}
	runtime.GC()
	runtime.ReadMemStats(&m)
	runtime.KeepAlive(kept)
	return before, m.HeapAlloc
}

// What the progress cache keeps of a user's states (loadCardStates' result) costs at most 60 % of
// a map[string]srs.Card holding the same rows, the layout the cache used to keep (280 bytes a
// state once measured). The test names only loadCardStates, so it runs against either layout.
func TestCachedStatesAreCompact(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	const n, loads = 1000, 20 // states per user, as in bench/run.sh; users loaded
	seedStates(t, db, uid, n)
	oldLayout := func() any {
		rows, err := db.query(ctx, `SELECT card_id, `+cardCols+` FROM card_states WHERE user_id = ?`, uid)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		m := map[string]srs.Card{}
		for rows.Next() {
			var id string
			c, err := scanCard(rows, &id)
			if err != nil {
				t.Fatal(err)
			}
			m[id] = c
		}
		return m
	}
	cached := func() any {
		st, err := db.CardStates(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	perState := func(build func() any) float64 {
		b, a := heapAfter(loads, build)
		return float64(int64(a)-int64(b)) / (n * loads)
	}
	old, now := perState(oldLayout), perState(cached)
	t.Logf("heap bytes per state: map[string]srs.Card %.1f, cached %.1f (%.0f %%)", old, now, 100*now/old)
	if now > 0.6*old {
		t.Fatalf("a cached state costs %.1f bytes, more than 60 %% of the map's %.1f", now, old)
	}
}

// Random states written to card_states come back from CardStates (packed in the cache) equal to
// what scanCard reads of each row, bit for bit: times from fromMS, every state and step, large
// counts.
func TestCardStatesRoundTrip(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	uid := studyUser(t, db)
	r := rand.New(rand.NewPCG(7, 8))
	msOrZero := func() int64 {
		if r.IntN(4) == 0 {
			return 0
		}
		return r.Int64N(1<<42) - 1<<40
	}
	for i := range 500 {
		_, err := db.w.ExecContext(ctx, upsertCardSQL, uid, fmt.Sprintf("c%d", i), r.IntN(4), r.IntN(12),
			r.ExpFloat64()*100, 1+9*r.Float64(), msOrZero(), msOrZero(), r.IntN(math.MaxInt32), r.IntN(1<<r.IntN(31)))
		if err != nil {
			t.Fatal(err)
		}
	}
	for range 2 { // loaded, then from the cache
		st, err := db.CardStates(ctx, uid)
		if err != nil || st.Len() != 500 {
			t.Fatalf("%d states, %v", st.Len(), err)
		}
		for i := range 500 {
			id := fmt.Sprintf("c%d", i)
			want, _, err := db.CardState(ctx, uid, id)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := st.Get(id); !ok || got != want || !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %+v, want %+v", id, got, want)
			}
		}
	}
}
