package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSimulation: a card shows a whole-run timeline and a close-up per variant and the metrics
// table; the lab compares protocols through the URL, and a bad value comes back with a message
// at its field. Screenshots go to $REHEARSE_SCREENSHOTS, when set, for a person to look at.
func TestSimulation(t *testing.T) {
	parallelTest(t)
	app := StartApp(t, "")
	ctx := Browser(t)

	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/cards/rebalance-triggers"),
		chromedp.WaitVisible(chromedp.ID("simulation"), poll),
	); err != nil {
		t.Fatalf("open a card: %v", err)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#simulation svg[data-view=overview]').length`); n != 2 {
		t.Fatalf("card shows %d timelines, want 2", n)
	}
	if n := Eval[int](ctx, t, `document.querySelectorAll('#sim-metrics thead th').length`); n != 3 {
		t.Fatalf("metrics table has %d header cells, want 3", n)
	}
	// The SVG is laid out (not zero-sized) and its rows are drawn.
	if w := Eval[float64](ctx, t, `document.querySelector('svg[data-view=overview]').getBoundingClientRect().width`); w < 300 {
		t.Errorf("timeline is %.0f px wide at desktop", w)
	}
	if !Eval[bool](ctx, t, `getComputedStyle(document.querySelector('svg.tl rect[data-state=processing]')).fill !== 'none'`) {
		t.Error("processing segments have no fill")
	}
	// Its accessibility at both sizes is checked by TestUIEveryPageBothSizesBothThemes ("card-sim").
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(390, 844),
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.ID("simulation"), poll),
	); err != nil {
		t.Fatalf("phone width: %v", err)
	}
	// At phone width the variants stack; the page itself never scrolls sideways.
	if !Eval[bool](ctx, t, `(() => { const f = document.querySelectorAll('figure.sim-variant'); return f[1].getBoundingClientRect().top >= f[0].getBoundingClientRect().bottom })()`) {
		t.Error("timelines do not stack at phone width")
	}
	if Eval[bool](ctx, t, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
		t.Error("the page scrolls sideways at phone width")
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 900)); err != nil {
		t.Fatal(err)
	}

	// The lab: eager, then cooperative; the stop-the-world count changes.
	stw := `document.querySelector('#sim-metrics tr[data-metric=stw] td').textContent`
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/sim?preset=consumer-join"),
		chromedp.WaitVisible(chromedp.ID("sim-form"), poll),
		chromedp.Click(chromedp.ID("p-cooperative")), // the preset loads eager and cooperative; keep eager
	); err != nil {
		t.Fatalf("lab: %v", err)
	}
	simSubmitLab(ctx, t)
	if Eval[int](ctx, t, `document.querySelectorAll('svg[data-view=overview]').length`) != 1 {
		t.Fatal("eager alone should draw one timeline")
	}
	eager := Eval[string](ctx, t, stw)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("p-eager")), chromedp.Click(chromedp.ID("p-cooperative"))); err != nil {
		t.Fatal(err)
	}
	simSubmitLab(ctx, t)
	if h := Eval[string](ctx, t, `document.querySelector('#sim-metrics thead th[data-variant]').textContent`); h != "cooperative" {
		t.Fatalf("metrics column = %q, want cooperative", h)
	}
	coop := Eval[string](ctx, t, stw)
	if eager == coop {
		t.Errorf("stop-the-world rebalances did not change with the protocol: %s and %s", eager, coop)
	}
	if u := Eval[string](ctx, t, `location.search`); !strings.Contains(u, "p=cooperative") {
		t.Errorf("the URL does not carry the scenario: %s", u)
	}
	// Dragging the scrubber updates the table without a round trip.
	before := Eval[string](ctx, t, `document.querySelector('#sim-at tbody td').textContent`)
	Eval[bool](ctx, t, `(() => { const r = document.getElementById('t'); r.value = r.max; r.dispatchEvent(new Event('input')); return true })()`)
	after := Eval[string](ctx, t, `document.querySelector('#sim-at tbody td').textContent`)
	if before == "" || after == "" || !Eval[bool](ctx, t, `document.querySelector('svg[data-view=overview] .cursor').classList.contains('on')`) {
		t.Errorf("scrubber: %q → %q", before, after)
	}

	CheckA11y(ctx, t, "the lab with a result")
	simShot(ctx, t, "sim-lab-desktop")

	// A bad value: the message sits at the field.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("heartbeat"), "99"),
		chromedp.SetValue(chromedp.ID("session"), "10"),
	); err != nil {
		t.Fatalf("bad value: %v", err)
	}
	simSubmitLab(ctx, t)
	if msg := Eval[string](ctx, t, `document.getElementById('heartbeat-error').textContent`); msg == "" {
		t.Error("no message at the heartbeat field")
	}
	CheckA11y(ctx, t, "the lab with a bad value")
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	simShot(ctx, t, "sim-lab-error-phone")
}

// simSubmitLab submits the lab form and waits for the new page (the old one is marked first, so
// a wait cannot be satisfied by what was already there).
func simSubmitLab(ctx context.Context, t *testing.T) {
	t.Helper()
	Eval[bool](ctx, t, `document.body.dataset.old = '1', true`)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("sim-run")),
		chromedp.WaitNotPresent(chromedp.CSS("body[data-old]"), poll),
		chromedp.WaitVisible(chromedp.ID("sim-form"), poll),
	); err != nil {
		t.Fatalf("submit the lab: %v", err)
	}
}

// simShot saves a screenshot for a person to look at, into $REHEARSE_SCREENSHOTS when set.
func simShot(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	dir := os.Getenv("REHEARSE_SCREENSHOTS")
	if dir == "" {
		return
	}
	path := filepath.Join(dir, name+".png")
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100 gives a PNG; lower qualities give JPEG
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
