package e2e

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// axePath is where .ci/run installs axe-core (npm install --prefix e2e/axe).
const axePath = "axe/node_modules/axe-core/axe.min.js"

// CheckA11y runs axe-core on the current page and fails the test on any serious or critical
// finding. Without axe-core installed it skips locally and fails under CI.
func CheckA11y(ctx context.Context, t testing.TB, what string) {
	t.Helper()
	runAxe(ctx, t, what, `v.impact === 'serious' || v.impact === 'critical'`)
}

// CheckA11yAll is CheckA11y failing on a finding of any impact, minor ones included.
func CheckA11yAll(ctx context.Context, t testing.TB, what string) {
	t.Helper()
	runAxe(ctx, t, what, `true`)
}

// runAxe injects axe-core (once per page) and reports the violations that keep (a JavaScript
// expression over v) selects.
func runAxe(ctx context.Context, t testing.TB, what, keep string) {
	t.Helper()
	src, err := os.ReadFile(axePath)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI: %s missing; .ci/run must run npm install in e2e/axe", axePath)
		}
		t.Logf("skipping accessibility check of %s: %s not installed (cd e2e/axe && npm install)", what, axePath)
		return
	}
	if loaded, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof axe !== 'undefined'`)); !loaded {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](string(src))); err != nil {
			t.Fatalf("inject axe-core: %v", err)
		}
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](
		`axe.run(document, {resultTypes: ['violations'], noHtml: true}).then(r => r.violations.filter(v => `+keep+`).map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))})))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("run axe-core on %s: %v", what, err)
	}
	var found []struct {
		ID, Impact, Help string
		Nodes            []string
	}
	if err := json.Unmarshal(raw, &found); err != nil {
		t.Fatalf("axe result: %v (%s)", err, raw)
	}
	for _, v := range found {
		t.Errorf("%s: axe %s (%s): %s at %s", what, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, ", "))
	}
}
