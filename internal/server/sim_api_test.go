package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/simrun"
)

// bigScenario is the largest result found within the web limits (a grid over protocol, members,
// partitions, restart spacing and session timeout): eager, 20 members, 5,000 partitions, a 2 ms
// session, eight rolling restarts. Its full result is about 8 MB of compact JSON.
func bigScenario(seed int64) rebalance.Scenario {
	session, hb := int64(2), int64(1)
	sc := rebalance.Scenario{Kind: "consumer", Protocol: "eager", Topics: map[string]int{"t": 5000},
		DurationMS: 2 * 3600 * 1000, Seed: seed}
	for i := range 20 {
		sc.Members = append(sc.Members, fmt.Sprintf("m%d", i))
	}
	sc.Config.SessionTimeoutMS, sc.Config.HeartbeatIntervalMS = &session, &hb
	for i := range 8 {
		sc.Events = append(sc.Events, rebalance.Event{AtMS: int64(i) * 200, Type: "rolling_restart", DownMS: 5, IntervalMS: 10})
	}
	return sc
}

func postSim(t *testing.T, e *testEnv, query string, sc rebalance.Scenario) (int, []byte) {
	t.Helper()
	b, _ := json.Marshal(sc)
	resp, err := http.Post(e.ts.URL+"/api/sim"+query, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// Finding 1: a small scenario produced a 457 MB body. A full result over the cap is now a 422
// that says what to do, and the summary of the same run fits.
func TestSimAPIResponseBounded(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	code, out := postSim(t, e, "", bigScenario(1))
	var msg struct{ Error string }
	json.Unmarshal(out, &msg)
	if code != http.StatusUnprocessableEntity || !strings.Contains(msg.Error, "view=summary") {
		t.Fatalf("big full result: %d %.300s, want 422 pointing at the summary", code, out)
	}
	code, out = postSim(t, e, "?view=summary", bigScenario(1))
	var sum simrun.Summary
	if err := json.Unmarshal(out, &sum); code != http.StatusOK || err != nil || !sum.Summary || len(sum.Rounds) == 0 || sum.Items != 5000 {
		t.Fatalf("summary: %d %v %.300s", code, err, out)
	}
	if len(out) > simMaxResponse/4 {
		t.Errorf("summary is %d bytes", len(out))
	}
	if code, out := postSim(t, e, "?view=everything", bigScenario(1)); code != http.StatusBadRequest || !bytes.Contains(out, []byte(`"view"`)) {
		t.Errorf("bad view: %d %s", code, out)
	}
}

// Identical concurrent scenarios share one run.
func TestSimAPISingleflight(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	runs := func() uint64 {
		var b bytes.Buffer
		e.srv.metrics.Write(&b)
		for line := range strings.Lines(b.String()) {
			if v, ok := strings.CutPrefix(line, "rehearse_simulation_run_seconds_count "); ok {
				n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
				if err != nil {
					t.Fatalf("count line %q: %v", line, err)
				}
				return n
			}
		}
		t.Fatal("no rehearse_simulation_run_seconds_count in the metrics")
		return 0
	}
	before := runs()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if code, out := postSim(t, e, "?view=summary", bigScenario(7)); code != http.StatusOK {
				t.Errorf("status %d: %.200s", code, out)
			}
		})
	}
	wg.Wait()
	if n := runs() - before; n != 1 {
		t.Fatalf("8 identical concurrent requests ran the simulation %d times, want 1", n)
	}
}

// Finding 1 (cached results): encoding a cached result takes a slot like a run does, so many
// requests for one cached result cannot all encode at once.
func TestSimAPICachedResultWaitsForSlot(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	sc, _ := rebalance.Preset("consumer-join")
	if code, _ := postSim(t, e, "", sc); code != http.StatusOK {
		t.Fatalf("first run: %d", code)
	}
	for range simrun.MaxParallel {
		if err := e.srv.sim.Acquire(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := json.Marshal(sc)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, e.ts.URL+"/api/sim", bytes.NewReader(b))
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("cached result answered %d while every slot was taken", resp.StatusCode)
	}
	for range simrun.MaxParallel {
		e.srv.sim.Release()
	}
	if code, _ := postSim(t, e, "", sc); code != http.StatusOK {
		t.Fatalf("after the slots freed: %d", code)
	}
}
