package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSimWhatIf: the eager-vs-cooperative card leads with its headline, says its regime under
// the figure, and its what-if form (a plain GET) finds where the claim flips: with an idle poll
// loop and free callbacks eager loses less than cooperative. The five flagship cards'
// figures are saved at both sizes and themes when REHEARSE_SHOTS is set.
func TestSimWhatIf(t *testing.T) {
	parallelTest(t)
	app := StartApp(t, "")
	ctx := Browser(t)
	down := func(v string) float64 {
		s := Eval[string](ctx, t, `document.querySelector('#sim-metrics tr[data-metric=downtime] td[data-variant=`+v+`]').dataset.value`)
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("downtime of %s: %q", v, s)
		}
		return f
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(app.URL+"/cards/eager-vs-cooperative"),
		chromedp.WaitVisible(chromedp.ID("sim-whatif"), poll),
	); err != nil {
		t.Fatalf("open the card: %v", err)
	}
	if h := Eval[string](ctx, t, `document.querySelector('#sim-headline').textContent`); !strings.HasPrefix(h, "cooperative: 3 of 48 partitions paused") {
		t.Errorf("headline %q", h)
	}
	if r := Eval[string](ctx, t, `document.querySelector('#sim-regime').textContent`); !strings.Contains(r, "12 consumers, 48 partitions") || !strings.Contains(r, "2 s of work") {
		t.Errorf("regime %q", r)
	}
	if e, c := down("eager"), down("cooperative"); e <= c {
		t.Fatalf("in the card's regime eager loses %.0f item-ms, cooperative %.0f: want eager more", e, c)
	}
	// The learner sets the idle regime and runs it: a GET with the numbers in the URL.
	for _, f := range []string{"processing_ms", "revoke_ms", "start_ms"} {
		if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("wi-"+f), "0")); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.ID("whatif-run")),
		chromedp.WaitVisible(chromedp.ID("whatif-reset"), poll),
	); err != nil {
		t.Fatalf("run the what-if: %v", err)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	if !strings.Contains(loc, "processing_ms=0") || !strings.Contains(loc, "start_ms=0") {
		t.Errorf("the what-if is not in the URL: %s", loc)
	}
	if e, c := down("eager"), down("cooperative"); e >= c {
		t.Errorf("idle regime: eager loses %.0f item-ms, cooperative %.0f: want the claim to flip", e, c)
	}

	dir := os.Getenv("REHEARSE_SHOTS")
	if dir == "" {
		return
	}
	for name, path := range map[string]string{
		"eager-vs-cooperative":          "/cards/eager-vs-cooperative",
		"static-membership-savings":     "/cards/static-membership-savings",
		"kip848-server-side-assignment": "/cards/kip848-server-side-assignment",
		"connect-incremental-kip415":    "/cards/connect-incremental-kip415",
		"lab-6-24-rolling":              "/sim?kind=consumer&members=6&partitions=24&duration=300&p=eager&p=cooperative&p=consumer&processing=1&revoke=0.2&start=1&e0type=rolling_restart&e0at=10&e0interval=30&e0down=10",
	} {
		for _, w := range []int64{390, 1280} {
			for _, scheme := range []string{"light", "dark"} {
				if err := chromedp.Do(ctx, chromedp.EmulateViewport(w, 900), chromedp.Navigate(app.URL+path),
					chromedp.WaitVisible(chromedp.ID("simulation"), poll)); err != nil {
					t.Fatal(err)
				}
				setTheme(ctx, t, scheme)
				shotOf(ctx, t, "simulation", filepath.Join(dir, name+"-"+strconv.FormatInt(w, 10)+"-"+scheme+".png"))
			}
		}
	}
}

func shotOf(ctx context.Context, t *testing.T, sel, path string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(sel)))
	if err != nil {
		t.Fatalf("screenshot %s: %v", sel, err)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
