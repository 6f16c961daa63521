package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/rehearse/rehearse/internal/rebalance"
	"github.com/rehearse/rehearse/internal/views"
)

// The what-if on a card: the figure's regime as a GET form (members, costs, timeouts), re-run
// on the server within the same limits as /api/sim, kept in the URL so it can be shared.

// whatIfAsked: the request changes a card's regime (its figure is then not the cached one).
func whatIfAsked(r *http.Request) bool {
	q := queryValues(r)
	for _, p := range rebalance.WhatIfParams {
		if q.Get(p) != "" {
			return true
		}
	}
	return false
}

// whatIf runs the card's scenarios changed as get asks. ran is false when nothing was asked or
// the query was refused; the form wi then carries the card's numbers and the refusal. Only an
// internal failure is an error.
func (s *Server) whatIf(ctx context.Context, get func(string) string, action string, labels []string, scs []rebalance.Scenario) (cmp views.SimComparison, wi *views.SimWhatIf, ran bool, err error) {
	wi = views.NewWhatIf(action, scs[0], get, s.sim.Web)
	w, asked, perr := rebalance.ParseWhatIf(get, s.sim.Web)
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
		var se *httpError
		if errors.As(err, &se) {
			msg = se.msg
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
			err = a.Validate(s.sim.Web) // the API's bounds, not the card's
		}
		if err != nil {
			return refuse(err)
		}
		alt[i] = a
	}
	cmp, err = s.compare(ctx, labels, alt, s.sim.Web)
	if err != nil {
		var se *httpError
		if errors.As(err, &se) && se.status < 500 {
			return refuse(err)
		}
		return cmp, wi, false, err
	}
	return cmp, wi, true, nil
}
