package simform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/rehearse/rehearse/internal/deck"
	"github.com/rehearse/rehearse/internal/deckload"
	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/simrun"
	"github.com/rehearse/rehearse/internal/views"
)

// Run is the simulator: a scenario's result, cached or run within lim (simrun.Runner.Run).
type Run func(ctx context.Context, sc rebalance.Scenario, lim rebalance.Limits) (*rebalance.Result, error)

// LabDefault is the preset the lab opens with.
const LabDefault = "consumer-join"

// ErrForm: the lab's form has problems; the page's Err says which.
var ErrForm = errors.New("the lab form has problems")

// Lab builds the lab for a query. Without a submitted form it loads a preset (the default one
// when none is named); a submitted form is parsed, validated and run within lim. The error is
// ErrForm for a form to fix, else the simulator's.
func Lab(ctx context.Context, run Run, q url.Values, lim rebalance.Limits) (views.SimLabPage, error) {
	v := views.SimLabPage{Presets: rebalance.Presets(), Preset: q.Get("preset")}
	if q.Has("kind") {
		v.Form = FromQuery(q)
	} else {
		name := v.Preset
		if name == "" {
			name = LabDefault
		}
		sc, ok := rebalance.Preset(name)
		if !ok {
			v.Preset = LabDefault
			v.Err = &views.FormError{Form: fmt.Sprintf("There is no preset named %q; pick one from the list.", name)}
			sc, _ = rebalance.Preset(LabDefault)
		}
		v.Form = FromScenario(sc)
		if v.Preset == "" {
			v.Preset = name
		}
	}
	labels, scs, ferr := Scenarios(v.Form, lim)
	if ferr != nil {
		v.Err = ferr
		return v, ErrForm
	}
	cmp, err := Compare(ctx, run, labels, scs, lim)
	if err != nil {
		return v, err
	}
	cmp.Scrubber = true
	cmp.AtMS = ScrubMoment(q.Get("t"), scs[0])
	FillScrub(&cmp)
	v.Comparison = &cmp
	b, _ := json.MarshalIndent(scs[0], "", "  ")
	v.JSON, v.JSONLabel = string(b), labels[0]
	v.ShareQuery = ShareQuery(v.Form, q.Get("t")).Encode()
	return v, nil
}

// Compare runs one scenario per variant and builds the side-by-side view.
func Compare(ctx context.Context, run Run, labels []string, scs []rebalance.Scenario, lim rebalance.Limits) (views.SimComparison, error) {
	var c views.SimComparison
	for i, sc := range scs {
		res, err := run(ctx, sc, lim)
		if err != nil {
			return c, err
		}
		c.Variants = append(c.Variants, views.NewVariant(i, labels[i], res))
		if res.Truncated {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the run was too large to record in full; the timeline stops at %s (metrics are exact).", labels[i], views.Secs(res.TruncatedAtMS)))
		}
	}
	if len(scs) > 0 {
		c.Headline, c.Regime = views.Headline(scs[0].Kind, c.Variants), views.Regime(scs, labels)
		c.Notes = append(c.Notes, scs[0].Beyond()...) // events the run ends too early to show
	}
	return c, nil
}

// Card is the figure that illustrates a card: its own regime within the deck's card bound, or,
// when get asks for a what-if, the card's scenarios changed as asked within lim (the web
// bound). action is the page the what-if form posts to. A card without a simulation has none.
func Card(ctx context.Context, run Run, c *deck.Card, get func(string) string, action string, lim rebalance.Limits) (views.Slot, error) {
	if c.Sim == nil {
		return nil, nil
	}
	scs, err := deckload.CardScenarios(c.Sim)
	if err != nil {
		// The deck check rejects these at load; reaching here means a deck loaded without it.
		return nil, fmt.Errorf("card %s: simulation: %w", c.ID, err)
	}
	labels := VariantLabels(c.Sim.Compare, scs)
	cmp, wi, ran, err := WhatIf(ctx, run, get, action, labels, scs, lim)
	if err != nil {
		return nil, err
	}
	if !ran { // nothing asked, or refused: the card's own regime
		if cmp, err = Compare(ctx, run, labels, scs, deckload.CardLimits); err != nil {
			return nil, err
		}
	}
	cmp.WhatIf = wi
	cmp.Caption = c.Sim.Caption
	return views.SimFigure(cmp), nil
}

// VariantLabels names each variant: the card's compare labels, or the scenario's own protocol.
func VariantLabels(compare []string, scs []rebalance.Scenario) []string {
	if len(compare) == len(scs) {
		return compare
	}
	out := make([]string, len(scs))
	for i, sc := range scs {
		out[i] = sc.Protocol
		if sc.StaticMembership {
			out[i] += "+static"
		}
	}
	return out
}

// WhatIfAsked reports whether a query changes a card's regime (its figure is then not the
// card's own).
func WhatIfAsked(get func(string) string) bool {
	for _, p := range rebalance.WhatIfParams {
		if get(p) != "" {
			return true
		}
	}
	return false
}

// WhatIf runs the card's scenarios changed as get asks, within lim. ran is false when nothing
// was asked or the query was refused (bad values, or over the simulator's budget); the form wi
// then carries the card's numbers and the refusal. Only another failure is an error.
func WhatIf(ctx context.Context, run Run, get func(string) string, action string, labels []string, scs []rebalance.Scenario, lim rebalance.Limits) (cmp views.SimComparison, wi *views.SimWhatIf, ran bool, err error) {
	wi = views.NewWhatIf(action, scs[0], get, lim)
	w, asked, perr := rebalance.ParseWhatIf(get, lim)
	if !asked {
		return cmp, wi, false, nil
	}
	refuse := func(err error) (views.SimComparison, *views.SimWhatIf, bool, error) {
		field, msg := "", err.Error()
		var fe *rebalance.FieldError
		if errors.As(err, &fe) {
			field = strings.TrimPrefix(fe.Field, "config.")
			msg = fe.Field + ": " + fe.Msg
		}
		wi.Refuse(field, "Not run: "+msg+". The figure shows the card's own numbers.")
		return views.SimComparison{}, wi, false, nil
	}
	if perr != nil {
		return refuse(perr)
	}
	alt := make([]rebalance.Scenario, len(scs))
	for i, sc := range scs {
		a, err := w.Apply(sc)
		if err == nil {
			a = a.WithDefaults()
			err = a.Validate(lim) // the API's bounds, not the card's
		}
		if err != nil {
			return refuse(err)
		}
		alt[i] = a
	}
	cmp, err = Compare(ctx, run, labels, alt, lim)
	if _, over := errors.AsType[*simrun.BudgetError](err); over {
		return refuse(err)
	}
	if err != nil {
		return cmp, wi, false, err
	}
	return cmp, wi, true, nil
}

// Expectations runs a card's simulation and evaluates its `expect:` claims, as `rehearse
// check` does: each result for the editor, and each failure as a problem at its line (a card
// whose claims fail is not saved, like one the check refuses).
func Expectations(ctx context.Context, run Run, sim *deck.Simulation) ([]views.ExpectResult, deck.ErrorList) {
	if sim == nil || len(sim.Expect) == 0 {
		return nil, nil
	}
	scs, err := deckload.CardScenarios(sim)
	if err != nil {
		return nil, nil // reported by the simulation check
	}
	values := map[string]map[string]float64{}
	for i, sc := range scs {
		res, err := run(ctx, sc, deckload.CardLimits)
		if err != nil {
			return nil, nil
		}
		if i < len(sim.Compare) {
			values[sim.Compare[i]] = views.MetricValues(res)
		}
	}
	var out []views.ExpectResult
	var failed deck.ErrorList
	for _, x := range sim.Expect {
		msg := x.Check(values)
		out = append(out, views.ExpectResult{Claim: x.String(), Line: x.Line, Failure: msg})
		if msg != "" {
			failed = append(failed, deck.Error{Line: x.Line, Msg: msg})
		}
	}
	return out, failed
}

// ScrubMoment reads ?t= (seconds); by default it is just after the first event.
func ScrubMoment(t string, sc rebalance.Scenario) int64 {
	if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsNaN(f) {
		return min(max(int64(f*1000), 0), sc.DurationMS)
	}
	if len(sc.Events) > 0 {
		return min(sc.Events[0].AtMS+500, sc.DurationMS)
	}
	return 0
}

// FillScrub builds the "who owns what" table at AtMS and the scrubber's data.
func FillScrub(c *views.SimComparison) {
	if len(c.Variants) == 0 {
		return
	}
	for i := range c.Variants {
		c.Variants[i].Scrub = views.ScrubData(c.Variants[i].Label, c.Variants[i].Result, views.MaxTimelineRows)
	}
	first := c.Variants[0].Result.Timeline
	for i := 0; i < len(first) && i < views.MaxTimelineRows; i++ {
		row := views.AtRow{Item: first[i].Item}
		for _, v := range c.Variants {
			var cell views.AtCell
			if i < len(v.Result.Timeline) {
				cell.State, cell.Owner = views.StateAt(v.Result.Timeline[i], c.AtMS)
			}
			row.Cells = append(row.Cells, cell)
		}
		c.At = append(c.At, row)
	}
}
