package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestSimFigures checks, at desktop and phone width, that the figures show each card's point
// without hovering: the moved partitions' pauses fill a visible share of the close-up, owners
// have colours and a legend, ←/→ step through the rounds with the close-up's cursor, the page
// never scrolls sideways and figure text stays at 11 px or more on a phone. Then, without
// JavaScript, every round is listed.
func TestSimFigures(t *testing.T) {
	parallelTest(t)
	fullOnly(t, "TestSimulation checks a card's figures and the lab in a plain run")
	app := StartApp(t, "")
	ctx := Browser(t)
	open := func(card string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Navigate(app.URL+"/cards/"+card), chromedp.WaitVisible(chromedp.ID("simulation"), poll)); err != nil {
			t.Fatalf("open %s: %v", card, err)
		}
	}
	for _, w := range []struct{ w, h int64 }{{1280, 900}, {390, 844}} {
		t.Run(fmt.Sprintf("%dpx", w.w), func(t *testing.T) {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(w.w, w.h)); err != nil {
				t.Fatal(err)
			}
			open("cooperative-two-rounds")
			// The three moved partitions (orders-9..11) pause for at least a tenth of the close-up.
			share := Eval[[]float64](ctx, t, `(() => {
				const svg = document.querySelector('svg[data-view=closeup]');
				const plot = +svg.dataset.plotw / svg.viewBox.baseVal.width * svg.getBoundingClientRect().width;
				return ['orders-9', 'orders-10', 'orders-11'].map(item => {
					let w = 0;
					svg.querySelectorAll('rect[data-item="' + item + '"]:not([data-state=processing])').forEach(r => w += r.getBoundingClientRect().width);
					return w / plot;
				});
			})()`)
			for i, f := range share {
				if f < 0.1 {
					t.Errorf("moved partition %d pauses for %.2f of the close-up's width, want ≥ 0.1", i, f)
				}
			}
			// ←/→ move the highlighted round and the cursor on the close-up.
			state := `(() => { const s = document.querySelector('.steps'); const c = document.getElementById(s.dataset.closeup);
				return [s.dataset.current, c.querySelector('.band.on').dataset.round, c.querySelector('.cursor').getAttribute('x1'),
					String(document.querySelectorAll('.steps .step:not([hidden])').length)].join('|') })()`
			before := Eval[string](ctx, t, state)
			if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(".steps")), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
				t.Fatal(err)
			}
			after := Eval[string](ctx, t, state)
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
				t.Fatal(err)
			}
			back := Eval[string](ctx, t, state)
			if before[:4] != "0|0|" || after[:4] != "1|1|" || before == after || back != before {
				t.Errorf("step view: before %s, after → %s, after ← %s", before, after, back)
			}
			noSideways(t, ctx)
			if w.w == 390 {
				smallest := Eval[float64](ctx, t, `(() => { let min = 99;
					document.querySelectorAll('svg[data-view=closeup] text, svg.seq text, svg[data-view=overview] text').forEach(el => {
						const svg = el.ownerSVGElement, r = svg.getBoundingClientRect();
						if (el.closest('[hidden]') || r.width === 0) return;
						const px = parseFloat(getComputedStyle(el).fontSize) * r.width / svg.viewBox.baseVal.width;
						min = Math.min(min, px);
					});
					return min })()`)
				if smallest < 11 {
					t.Errorf("smallest figure text is %.1f px at 390 px wide, want ≥ 11", smallest)
				}
				if !Eval[bool](ctx, t, `(() => { const b = document.querySelector('.tl-box'); return b.scrollWidth > b.clientWidth })()`) {
					t.Error("the whole-run timeline does not scroll inside its box on a phone")
				}
			}
			// The join card: the member legend and at least three owner colours on the figure.
			open("eager-vs-cooperative")
			if n := Eval[int](ctx, t, `document.querySelectorAll('.sim-members li[data-member]').length`); n < 4 {
				t.Errorf("member legend has %d entries, want m1..m4", n)
			}
			if n := Eval[int](ctx, t, `new Set([...document.querySelectorAll('svg[data-view=overview] rect[data-owner]:not([data-owner=""])')].map(r => getComputedStyle(r).fill)).size`); n < 3 {
				t.Errorf("%d owner colours on the join card, want ≥ 3", n)
			}
			noSideways(t, ctx)
			for _, card := range []string{"cooperative-two-rounds", "eager-vs-cooperative", "eager-to-cooperative-migration", "connect-incremental-kip415", "kip848-server-side-assignment"} {
				open(card)
				noSideways(t, ctx)
				simShot(ctx, t, fmt.Sprintf("fig-%s-%d", card, w.w))
			}
		})
	}
	// Brushing the whole run picks an episode: a click at the last episode's time shows its
	// close-up and hides the first one.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	open("eager-to-cooperative-migration")
	pt := Eval[[]float64](ctx, t, `(() => { const fig = document.querySelector('.sim-variant'); const eps = fig.querySelectorAll('.episode');
		const last = eps[eps.length - 1].querySelector('svg'), over = fig.querySelector('svg[data-view=overview]');
		over.scrollIntoView({block: 'center'});
		const ms = (+last.dataset.fromMs + +last.dataset.toMs) / 2, r = over.getBoundingClientRect(), vb = over.viewBox.baseVal;
		const x = (+over.dataset.plotx + (ms - +over.dataset.fromMs) / (+over.dataset.toMs - +over.dataset.fromMs) * +over.dataset.plotw) * r.width / vb.width;
		return [r.left + x, r.top + r.height / 2] })()`)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(pt[0], pt[1])); err != nil {
		t.Fatal(err)
	}
	if got := Eval[string](ctx, t, `(() => { const eps = [...document.querySelectorAll('.sim-variant .episode')]; return eps.map(e => e.hidden ? '-' : e.dataset.episode).join(',') })()`); !strings.HasPrefix(got, "-,-,") || strings.HasSuffix(got, "-") {
		t.Errorf("after brushing the last episode, close-ups shown: %s", got)
	}

	// The lab: rows show only the fields their event uses, and are added and removed in place;
	// the scrubber's moment goes into the address.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(app.URL+"/sim?preset=consumer-join"), chromedp.WaitVisible(chromedp.ID("ev-add"), poll)); err != nil {
		t.Fatalf("lab: %v", err)
	}
	visible := func(sel string) bool {
		return Eval[bool](ctx, t, `(() => { const el = document.querySelector('`+sel+`'); return !!el && el.offsetParent !== null })()`)
	}
	rows := func() int { return Eval[int](ctx, t, `document.querySelectorAll('.sim-event').length`) }
	if n := rows(); n != 2 || !visible("#e0member") || visible("#e0down") || visible("#e0value") {
		t.Errorf("join row: %d rows, member shown %v, down shown %v", n, visible("#e0member"), visible("#e0down"))
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("ev-add"))); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != 3 {
		t.Errorf("after adding: %d rows, want 3", n)
	}
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("e2type"), "restart")); err != nil {
		t.Fatal(err)
	}
	Eval[bool](ctx, t, `document.getElementById('e2type').dispatchEvent(new Event('change')), true`)
	if !visible("#e2down") || visible("#e2interval") {
		t.Error("a restart row should show down and hide interval")
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#ev2 .ev-remove"))); err != nil {
		t.Fatal(err)
	}
	if n := rows(); n != 2 {
		t.Errorf("after removing: %d rows, want 2", n)
	}
	Eval[bool](ctx, t, `(() => { const r = document.getElementById('t'); r.value = '10.4'; r.dispatchEvent(new Event('input')); r.dispatchEvent(new Event('change')); return true })()`)
	if u := Eval[string](ctx, t, `location.search`); !strings.Contains(u, "t=10.4") {
		t.Errorf("the scrubber's moment is not in the address: %s", u)
	}
	noSideways(t, ctx)

	// Without JavaScript the step view is an ordered list of every round, all visible.
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	open("cooperative-two-rounds")
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(".steps ol.step-list > li.step:nth-child(2)"), poll)); err != nil {
		t.Fatalf("round 2 is not listed without JavaScript: %v", err)
	}
	heads := Eval[[]string](ctx, t, `[...document.querySelectorAll('.steps .step .step-head strong')].map(e => e.textContent)`)
	if fmt.Sprint(heads) != "[Round 1 Round 2]" {
		t.Errorf("no-JS step list = %v", heads)
	}
}

// noSideways fails when the page itself is wider than the window.
func noSideways(t *testing.T, ctx context.Context) {
	t.Helper()
	if Eval[bool](ctx, t, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
		t.Errorf("%s scrolls sideways", Eval[string](ctx, t, `location.pathname`))
	}
}
