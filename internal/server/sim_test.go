package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/rehearse/rehearse/content"
	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/store/storetest"
	"github.com/rehearse/rehearse/internal/views"
	"github.com/rehearse/rehearse/web"
)

// newSimEnv is newEnv over another deck (the simulation deck, or the real content).
func newSimEnv(t *testing.T, fsys fs.FS) *testEnv {
	t.Helper()
	db := storetest.Open(t)
	d, err := deck.Load(fsys, deck.Options{CheckSim: func(s *deck.Simulation) error { _, err := deckload.CardScenarios(s); return err }})
	if err != nil {
		t.Fatal(err)
	}
	assets, err := web.NewAssets(map[string][]byte{"highlight.css": []byte(deck.HighlightCSS())})
	if err != nil {
		t.Fatal(err)
	}
	e := &testEnv{t: t, db: db, now: time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e.srv = New(Config{Hasher: testHasher}, db, StaticDeck{d}, assets, log, func() time.Time { return e.now })
	e.ts = httptest.NewServer(e.srv.Handler())
	t.Cleanup(e.ts.Close)
	return e
}

func metricCells(doc *goquery.Document, metric string) []string {
	var out []string
	doc.Find("#sim-metrics tr[data-metric=" + metric + "] td").Each(func(_ int, s *goquery.Selection) { out = append(out, s.Text()) })
	return out
}

func TestSimCardFigure(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	resp, doc := e.get(e.client(), "/cards/sim-join")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	sim := doc.Find("#card #simulation")
	if sim.Length() != 1 {
		t.Fatal("card page has no simulation section")
	}
	if got := sim.Find("#sim-caption").Text(); !strings.Contains(got, "cooperative pauses only the one that moves") {
		t.Errorf("caption = %q", got)
	}
	svgs := sim.Find("svg[data-view=overview]")
	if svgs.Length() != 2 {
		t.Fatalf("timelines = %d, want 2 (one per variant)", svgs.Length())
	}
	states := map[string]int{}
	svgs.Each(func(i int, svg *goquery.Selection) {
		if v, _ := svg.Attr("data-variant"); v != []string{"eager", "cooperative"}[i] {
			t.Errorf("timeline %d is %q", i, v)
		}
		if vb, _ := svg.Attr("viewBox"); !strings.HasPrefix(vb, "0 0 560 ") {
			t.Errorf("viewBox = %q", vb)
		}
		rows := svg.Find("g.row")
		if rows.Length() != 12 {
			t.Errorf("%d rows, want 12 partitions", rows.Length())
		}
		if item, _ := rows.First().Attr("data-item"); item != "orders-0" {
			t.Errorf("first row is %q", item)
		}
		svg.Find("g.row rect[data-state]").Each(func(_ int, r *goquery.Selection) {
			st, _ := r.Attr("data-state")
			states[st]++
			if r.Find("title").Text() == "" {
				t.Errorf("segment without a hover title: %s", st)
			}
			for _, a := range []string{"data-item", "data-owner", "data-from-ms", "data-to-ms"} {
				if _, ok := r.Attr(a); !ok {
					t.Errorf("segment without %s", a)
				}
			}
		})
		if svg.Find(".mk-event").Length() != 1 {
			t.Errorf("event markers = %d, want 1 (the join)", svg.Find(".mk-event").Length())
		}
		if svg.Find("g.mk-round").Length() == 0 {
			t.Error("no round markers")
		}
		if svg.Find(".axis text").Length() < 3 {
			t.Error("time axis has too few ticks")
		}
	})
	// Pauses this short fold into one mark named after its longest state.
	if states["processing"] == 0 || states["unowned"]+states["starting"]+states["revoking"] == 0 {
		t.Errorf("segment states = %v, want processing and pauses", states)
	}
	for st := range states {
		if st == "" {
			t.Error("segment without a state")
		}
	}
	if n := sim.Find("#sim-metrics thead th").Length(); n != 3 {
		t.Errorf("metrics columns = %d, want metric + 2 variants", n)
	}
	if n := sim.Find("#sim-metrics tbody tr").Length(); n != len(views.MetricDefs) {
		t.Errorf("metrics rows = %d, want %d", n, len(views.MetricDefs))
	}
	// Eager stops the world for the join; cooperative never does.
	if got := metricCells(doc, "stw"); len(got) != 2 || got[0] == "0" || got[1] != "0" {
		t.Errorf("stop-the-world cells = %v", got)
	}
	if sim.Find(".sim-legend li").Length() < 4 {
		t.Error("legend missing")
	}
	narr := sim.Find("#sim-rounds ol.sim-narration[data-variant=eager] li")
	if narr.Length() == 0 || !strings.Contains(narr.First().Text(), "m4") {
		t.Errorf("narration = %q", narr.Text())
	}
	rounds := sim.Find("#sim-rounds table.sim-rounds[data-variant=cooperative] tbody tr")
	if rounds.Length() < 2 {
		t.Errorf("cooperative rounds = %d, want two (revoke, then assign)", rounds.Length())
	}
	if n := sim.Find("#sim-rounds table.sim-rounds").First().Find("thead th").Length(); n != 9 {
		t.Errorf("rounds table columns = %d, want 9", n)
	}
	// One numbering: the rounds table, the close-up's bands and the step view name the
	// cooperative join's rounds "round 1" and "round 2" (Kafka's generations are 2 and 3).
	if got := rounds.Map(func(_ int, tr *goquery.Selection) string { return tr.Find("td").First().Text() }); strings.Join(got, ",") != "round 1,round 2" {
		t.Errorf("rounds table names %v", got)
	}
	coop := sim.Find("figure.sim-variant[data-variant=cooperative]")
	cu := coop.Find("svg[data-view=closeup]")
	if cu.Length() != 1 {
		t.Fatalf("cooperative close-ups = %d, want 1 (one episode)", cu.Length())
	}
	from, _ := cu.Attr("data-from-ms")
	to, _ := cu.Attr("data-to-ms")
	// The window holds both rounds (the join is at 10 s) and is a small part of the 60 s run.
	lastEnd, _ := coop.Find(".steps .step").Last().Attr("data-to-ms")
	if f, g := msAttr(t, from), msAttr(t, to); f > 10_000 || g <= msAttr(t, lastEnd) || g-f > 15_000 {
		t.Errorf("close-up window %s..%s ms, want the episode from 10 000 to past %s padded", from, to, lastEnd)
	}
	if got := cu.Find(".band text").Map(func(_ int, s *goquery.Selection) string { return s.Text() }); strings.Join(got, ",") != "round 1,round 2" {
		t.Errorf("close-up bands = %v", got)
	}
	steps := coop.Find(".steps .step")
	if steps.Length() != 2 || !strings.Contains(steps.First().Text(), "withholds 3") || !strings.Contains(steps.Eq(1).Find(".step-lines").Text(), "start 3 (orders-9, orders-10, orders-11)") {
		t.Errorf("step view = %q", steps.Text())
	}
	if sim.Find("#sim-metric-defs dt").Length() != len(views.MetricDefs) {
		t.Error("metric definitions missing")
	}
	if sim.Find(".sim-members li").Length() != 4 {
		t.Errorf("member legend = %q, want m1..m4", sim.Find(".sim-members").Text())
	}
	// No inline styles: the CSP forbids them.
	if doc.Find("#simulation [style]").Length() != 0 || doc.Find("#simulation style").Length() != 0 {
		t.Error("inline style in the simulation")
	}
	// A card without a simulation shows none.
	_, doc = e.get(e.client(), "/cards/sample-eager")
	if doc.Find("#simulation").Length() != 0 {
		t.Error("card without a simulation shows one")
	}
}

func msAttr(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

func TestSimCardResultsAreCached(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	_, first := e.get(e.client(), "/cards/sim-join")
	if n := e.srv.sim.Cache.Len(); n != 2 {
		t.Fatalf("cache holds %d results after one card, want 2", n)
	}
	_, again := e.get(e.client(), "/cards/sim-join")
	if n := e.srv.sim.Cache.Len(); n != 2 {
		t.Fatalf("cache holds %d after a repeat, want 2", n)
	}
	a, _ := first.Find("#simulation").Html()
	b, _ := again.Find("#simulation").Html()
	if a != b {
		t.Error("a cached render differs from the first")
	}
	// The lab asking for the same scenario is served from the same entries.
	e.get(e.client(), "/sim?preset=consumer-join")
	if n := e.srv.sim.Cache.Len(); n != 2 {
		t.Errorf("cache holds %d after the lab ran the same preset, want 2", n)
	}
}

const labJoin = "/sim?kind=consumer&members=3&partitions=12&duration=60&e0type=join&e0at=10&e0member=m4&processing=1&revoke=0.2&start=1"

// labQuery is labJoin with some values replaced.
func labQuery(set ...string) string {
	u, _ := url.Parse(labJoin)
	q := u.Query()
	for i := 0; i+1 < len(set); i += 2 {
		q.Set(set[i], set[i+1])
	}
	return "/sim?" + q.Encode()
}

func TestSimLabProtocolChangesMetrics(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	resp, eager := e.get(e.client(), labJoin+"&p=eager")
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, eager.Find(".error, .field-error").Text())
	}
	_, coop := e.get(e.client(), labJoin+"&p=cooperative")
	if eager.Find("svg[data-view=overview]").Length() != 1 || coop.Find("svg[data-view=overview]").Length() != 1 {
		t.Fatal("one protocol should give one timeline")
	}
	if h := coop.Find("#sim-metrics thead th[data-variant]").Text(); h != "cooperative" {
		t.Errorf("metrics header = %q", h)
	}
	if a, b := metricCells(eager, "stw"), metricCells(coop, "stw"); a[0] == b[0] {
		t.Errorf("stop-the-world rebalances equal across protocols: %v vs %v", a, b)
	}
	if a, b := metricCells(eager, "downtime"), metricCells(coop, "downtime"); a[0] == b[0] {
		t.Errorf("downtime equal across protocols: %v vs %v", a, b)
	}
	// The form keeps what was asked, and the JSON box holds a scenario `rehearse sim` accepts.
	if _, ok := coop.Find("#p-cooperative").Attr("checked"); !ok {
		t.Error("protocol checkbox not kept")
	}
	sc, err := rebalance.Decode(strings.NewReader(coop.Find("#sim-json").Text()), rebalance.CLILimits)
	if err != nil || sc.Protocol != "cooperative" || len(sc.Events) != 1 || sc.Events[0].Member != "m4" {
		t.Errorf("copy-as-JSON scenario: %+v, %v", sc, err)
	}
	// Two protocols side by side.
	_, both := e.get(e.client(), labJoin+"&p=eager&p=consumer")
	if both.Find("svg[data-view=overview]").Length() != 2 || both.Find("#sim-metrics thead th").Length() != 3 {
		t.Error("two protocols should give two timelines and two metric columns")
	}
}

func TestSimLabBadValues(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	for _, tc := range []struct{ query, field string }{
		{labQuery("p", "eager", "heartbeat", "50", "session", "10"), "heartbeat"},
		{labQuery("p", "eager", "members", "abc"), "members"},
		{labQuery("p", "eager", "partitions", "0"), "partitions"},
		{labQuery("p", "eager", "e0at", "-1"), "e0at"},
		{labJoin + "&p=incremental", "p"},
		{labJoin, "p"},
		{"/sim?kind=consumer&members=3&partitions=12&duration=60&p=eager&e1type=leave&e1at=5&e1member=m9", "e1member"},
		{"/sim?kind=consumer&members=3&partitions=12&duration=60&p=eager&e0type=join&e0at=120&e0member=m4", "e0at"},
		{"/sim?kind=cluster&members=3&p=eager", "kind"},
	} {
		resp, doc := e.get(e.client(), tc.query)
		if resp.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: status %d, want 422", tc.query, resp.StatusCode)
			continue
		}
		msg := doc.Find("#" + tc.field + "-error").Text()
		if msg == "" {
			t.Errorf("%s: no message at %s; page says %q", tc.query, tc.field, doc.Find(".field-error, .error").Text())
		}
		if v, _ := doc.Find("#" + tc.field).Attr("aria-invalid"); tc.field != "p" && v != "true" {
			t.Errorf("%s: %s not marked invalid", tc.query, tc.field)
		}
		if doc.Find("svg[data-view=overview]").Length() != 0 {
			t.Errorf("%s: a figure was drawn for bad input", tc.query)
		}
	}
	_, doc := e.get(e.client(), labQuery("p", "eager", "members", "abc"))
	if v, _ := doc.Find("#members").Attr("value"); v != "abc" {
		t.Errorf("bad value not kept for correction: %q", v)
	}
}

func TestSimLabPresetAndScrubber(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	resp, doc := e.get(e.client(), "/sim")
	if resp.StatusCode != 200 || doc.Find("svg[data-view=overview]").Length() != 2 {
		t.Fatalf("default lab: %d, %d timelines", resp.StatusCode, doc.Find("svg[data-view=overview]").Length())
	}
	_, doc = e.get(e.client(), "/sim?preset=connect-worker-bounce")
	if v, _ := doc.Find("#kind option[selected]").Attr("value"); v != "connect" {
		t.Errorf("preset kind not loaded: %q", v)
	}
	if v, _ := doc.Find("#e0type option[selected]").Attr("value"); v != "restart" {
		t.Errorf("preset event not loaded: %q", v)
	}
	if got := doc.Find("svg[data-view=overview]").Map(func(_ int, s *goquery.Selection) string { v, _ := s.Attr("data-variant"); return v }); strings.Join(got, ",") != "eager,incremental" {
		t.Errorf("connect variants = %v", got)
	}
	if resp, _ := e.get(e.client(), "/sim?preset=nope"); resp.StatusCode != 200 {
		t.Errorf("unknown preset: status %d (falls back to the default with a message)", resp.StatusCode)
	}
	// At 5 s everything is processing; just before the eager round ends nothing is.
	sc, _ := rebalance.Preset("consumer-join")
	res, err := rebalance.Run(context.Background(), sc, rebalance.CLILimits)
	if err != nil || len(res.Rounds) == 0 {
		t.Fatalf("preset run: %v", err)
	}
	mid := strconv.FormatFloat(float64(res.Rounds[0].EndMS-1)/1000, 'f', -1, 64)
	_, before := e.get(e.client(), labJoin+"&p=eager&t=5")
	_, during := e.get(e.client(), labJoin+"&p=eager&t="+mid)
	rows := before.Find("#sim-at tbody tr")
	if rows.Length() != 12 {
		t.Fatalf("scrub table rows = %d, want 12", rows.Length())
	}
	if c := rows.First().Find("td").Text(); c != "processing · m1" {
		t.Errorf("orders-0 at 5 s = %q", c)
	}
	if during.Find("#sim-at td.at-processing").Length() != 0 {
		t.Errorf("eager group still processing at %s s: %q", mid, during.Find("#sim-at tbody").Text())
	}
	if v, _ := during.Find("input#t").Attr("value"); v != mid {
		t.Errorf("scrubber value = %q", v)
	}
	if during.Find(".scrub-data[data-json]").Length() != 1 {
		t.Error("scrubber data missing")
	}
}

func TestSimAPI(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	sc, _ := rebalance.Preset("consumer-join")
	body, _ := json.Marshal(sc)
	post := func(b []byte) (*http.Response, []byte) {
		resp, err := http.Post(e.ts.URL+"/api/sim", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp, out
	}
	resp, out := post(body)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, out)
	}
	var got rebalance.Result
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	want, err := rebalance.Run(context.Background(), sc, rebalance.CLILimits)
	if err != nil {
		t.Fatal(err)
	}
	if got.Metrics != want.Metrics || len(got.Rounds) != len(want.Rounds) || len(got.Timeline) != len(want.Timeline) {
		t.Errorf("API result differs from a direct run: %+v vs %+v", got.Metrics, want.Metrics)
	}
	for _, tc := range []struct{ body, field string }{
		{`{"kind":"consumer","topics":{"orders":0},"members":["m1"]}`, "topics.orders"},
		{`{"kind":"consumer","topics":{"orders":4},"members":["m1"],"colour":"red"}`, "colour"},
		{`{"kind":"consumer","topics":{"orders":4},"members":["m1"],"events":[{"at_ms":1,"type":"explode","member":"m1"}]}`, "events[0].type"},
		{`{"kind":"consumer","topics":{"orders":99999},"members":["m1"]}`, "topics.orders"},
	} {
		resp, out := post([]byte(tc.body))
		var e struct{ Error, Field string }
		json.Unmarshal(out, &e)
		if resp.StatusCode != 400 || e.Field != tc.field || e.Error == "" {
			t.Errorf("%s: %d %+v, want 400 naming %s", tc.body, resp.StatusCode, e, tc.field)
		}
	}
	resp, _ = post(append([]byte(`{"kind":"consumer","members":[`), bytes.Repeat([]byte(`"m",`), 100_000)...))
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized body: status %d, want 413", resp.StatusCode)
	}
}

// TestSimEveryContentCard renders every card of the real deck: each simulation has its caption
// and one timeline per compared variant.
func TestSimEveryContentCard(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, content.FS)
	d := e.srv.deck()
	withSim := 0
	for _, c := range d.Cards {
		resp, doc := e.get(e.client(), "/cards/"+c.ID)
		if resp.StatusCode != 200 {
			t.Errorf("%s: status %d", c.ID, resp.StatusCode)
			continue
		}
		if c.Sim == nil {
			// A card the simulator cannot illustrate says why, in its explanation.
			if !strings.Contains(c.Explanation.Text(), "No simulation:") {
				t.Errorf("%s: no simulation and no note saying why", c.ID)
			}
			if doc.Find("#simulation").Length() != 0 {
				t.Errorf("%s: a simulation section without a simulation", c.ID)
			}
			continue
		}
		withSim++
		if doc.Find("#sim-caption").Text() != c.Sim.Caption || c.Sim.Caption == "" {
			t.Errorf("%s: caption %q", c.ID, doc.Find("#sim-caption").Text())
		}
		want := max(len(c.Sim.Compare), 1)
		if n := doc.Find("#simulation svg[data-view=overview]").Length(); n != want {
			t.Errorf("%s: %d timelines, want %d", c.ID, n, want)
		}
		if n := doc.Find("#sim-metrics thead th").Length(); n != want+1 {
			t.Errorf("%s: %d metric columns, want %d", c.ID, n-1, want)
		}
	}
	if withSim < d.Len()*3/4 {
		t.Errorf("only %d of %d cards have a simulation", withSim, d.Len())
	}
}

func TestSimOverBudget(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	e.srv.sim.Web.MaxSteps = 1 // every run is over budget at its first step
	resp, doc := e.get(e.client(), labQuery("p", "eager"))
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find("#form-error").Text(), "computing time") {
		t.Errorf("lab over budget: %d %q", resp.StatusCode, doc.Find("#form-error").Text())
	}
	sc, _ := rebalance.Preset("consumer-join")
	body, _ := json.Marshal(sc)
	r, err := http.Post(e.ts.URL+"/api/sim", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var msg struct{ Error string }
	json.NewDecoder(r.Body).Decode(&msg)
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(msg.Error, "rehearse sim") {
		t.Errorf("API over budget: %d %q", r.StatusCode, msg.Error)
	}
	if n := e.srv.sim.Cache.Len(); n != 0 {
		t.Errorf("a failed run was cached (%d entries)", n)
	}
}

func TestSimLabCapsRows(t *testing.T) {
	t.Parallel()
	e := newSimEnv(t, os.DirFS("testdata/simdeck"))
	resp, doc := e.get(e.client(), labQuery("p", "cooperative", "partitions", "40"))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if n := doc.Find("svg[data-view=overview] g.row").Length(); n != 24 {
		t.Errorf("rows drawn = %d, want the cap of 24", n)
	}
	if note := doc.Find("figure.sim-variant p").Text(); !strings.Contains(note, "16 more are hidden") {
		t.Errorf("hidden-rows note = %q", note)
	}
	if n := doc.Find("#sim-at tbody tr").Length(); n != 24 {
		t.Errorf("scrub table rows = %d, want 24", n)
	}
}
