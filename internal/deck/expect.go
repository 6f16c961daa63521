package deck

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// ExpectMetrics are the names an expectation may test, as documented in docs/card-format.md.
// The server maps a simulation result onto exactly these.
var ExpectMetrics = []string{
	"rebalances", "stop_the_world_rebalances", "availability", "downtime_item_ms", "max_pause_ms",
	"moved", "wasted_moves", "time_to_stable_ms", "violations", "paused_items", "episodes", "parked",
	"all_stopped_ms",
}

// Expectation is one claim about a card's simulation result, written under simulation.expect:
//
//	cooperative.moved: 3               exact value
//	cooperative.max_pause_ms: "< 1000"  bound (<, <=, >, >=, =, !=)
//	eager.rebalances: "1..2"            inclusive range
//	max_pause_ms: eager > cooperative   comparison between two variants
type Expectation struct {
	Line    int
	Key     string // as written: "cooperative.moved" or "max_pause_ms"
	Raw     string // the value as written
	Variant string // empty for a comparison
	Metric  string
	Op      string  // <, <=, >, >=, =, != or ".." for a range
	Value   float64 // bound, or the range's low end
	High    float64 // the range's high end
	Left    string  // comparison: left variant
	Right   string  // comparison: right variant
}

// parseExpect reads simulation.expect, a mapping of keys to values.
func parseExpect(e *errs, n ast.Node, line int, at func(ast.Node) int) []Expectation {
	values, ok := mapValues(n)
	if !ok {
		e.add(line, `simulation.expect must be a mapping like "cooperative.moved: 3"`)
		return nil
	}
	var out []Expectation
	for _, mv := range values {
		key, kl := mapKey(mv), at(mv.Key)
		raw := ""
		switch v := unwrap(mv.Value).(type) {
		case *ast.IntegerNode, *ast.FloatNode:
			raw = v.GetToken().Value
		default:
			s, ok := yamlString(e, mv.Value, "simulation.expect."+key, kl)
			if !ok {
				continue
			}
			raw = s
		}
		x, err := ParseExpectation(key, raw)
		if err != nil {
			e.add(kl, "simulation.expect.%s: %v", key, err)
			continue
		}
		x.Line = kl
		out = append(out, x)
	}
	return out
}

// ParseExpectation reads one key and value; it does not check variant names (see checkVariants).
func ParseExpectation(key, raw string) (Expectation, error) {
	x := Expectation{Key: key, Raw: raw}
	raw = strings.TrimSpace(raw)
	variant, metric, hasVariant := strings.Cut(key, ".")
	if !hasVariant {
		variant, metric = "", key
	}
	if !knownMetric(metric) {
		return x, fmt.Errorf("unknown metric %q (want one of %s)", metric, strings.Join(ExpectMetrics, ", "))
	}
	x.Variant, x.Metric = variant, metric
	if !hasVariant { // a comparison: "eager > cooperative"
		f := strings.Fields(raw)
		if len(f) != 3 || !validOp(f[1]) {
			return x, fmt.Errorf(`%q is not a comparison like "eager > cooperative" (or write variant.%s)`, raw, metric)
		}
		x.Left, x.Op, x.Right = f[0], f[1], f[2]
		return x, nil
	}
	if variant == "" {
		return x, fmt.Errorf("the variant before %q is empty", "."+metric)
	}
	if lo, hi, ok := strings.Cut(raw, ".."); ok {
		a, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		b, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if err1 != nil || err2 != nil || a > b {
			return x, fmt.Errorf("%q is not a range like 1..3", raw)
		}
		x.Op, x.Value, x.High = "..", a, b
		return x, nil
	}
	x.Op = "="
	for _, op := range []string{"<=", ">=", "!=", "<", ">", "="} {
		if rest, ok := strings.CutPrefix(raw, op); ok {
			x.Op, raw = op, strings.TrimSpace(rest)
			break
		}
	}
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return x, fmt.Errorf(`%q is not a number, a bound like "< 1000" or a range like 1..3`, x.Raw)
	}
	x.Value = v
	return x, nil
}

func knownMetric(m string) bool {
	for _, k := range ExpectMetrics {
		if k == m {
			return true
		}
	}
	return false
}

func validOp(op string) bool {
	switch op {
	case "<", "<=", ">", ">=", "=", "!=":
		return true
	}
	return false
}

// checkVariants reports expectations naming a variant the simulation does not compare.
func checkVariants(e *errs, sim *Simulation) {
	known := map[string]bool{}
	for _, v := range sim.Compare {
		known[v] = true
	}
	for _, x := range sim.Expect {
		for _, v := range []string{x.Variant, x.Left, x.Right} {
			if v != "" && !known[v] {
				e.add(x.Line, "simulation.expect.%s: %q is not one of the compared variants (%s)", x.Key, v, strings.Join(sim.Compare, ", "))
			}
		}
	}
}

// String is the claim in one form for messages: "cooperative.moved = 3",
// "eager.max_pause_ms > cooperative.max_pause_ms".
func (x Expectation) String() string {
	switch {
	case x.Variant == "":
		return fmt.Sprintf("%s.%s %s %s.%s", x.Left, x.Metric, x.Op, x.Right, x.Metric)
	case x.Op == "..":
		return fmt.Sprintf("%s.%s in %s..%s", x.Variant, x.Metric, fnum(x.Value), fnum(x.High))
	}
	return fmt.Sprintf("%s.%s %s %s", x.Variant, x.Metric, x.Op, fnum(x.Value))
}

// Check evaluates the claim against per-variant metric values; it returns "" when it holds and
// otherwise the message "expect cooperative.moved = 3, got 6".
func (x Expectation) Check(values map[string]map[string]float64) string {
	get := func(v string) (float64, bool) {
		m, ok := values[v]
		if !ok {
			return 0, false
		}
		f, ok := m[x.Metric]
		return f, ok
	}
	if x.Variant == "" {
		l, ok1 := get(x.Left)
		r, ok2 := get(x.Right)
		if !ok1 || !ok2 {
			return fmt.Sprintf("expect %s: no result for the variants", x)
		}
		if holds(x.Op, l, r) {
			return ""
		}
		return fmt.Sprintf("expect %s, got %s and %s", x, fnum(l), fnum(r))
	}
	got, ok := get(x.Variant)
	if !ok {
		return fmt.Sprintf("expect %s: no result for %s", x, x.Variant)
	}
	pass := holds(x.Op, got, x.Value)
	if x.Op == ".." {
		pass = got >= x.Value && got <= x.High
	}
	if pass {
		return ""
	}
	return fmt.Sprintf("expect %s, got %s", x, fnum(got))
}

func holds(op string, a, b float64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	case "!=":
		return a != b
	}
	return a == b
}

// fnum prints whole numbers without a fraction and others to four decimals at most.
func fnum(f float64) string { return strconv.FormatFloat(math.Round(f*1e4)/1e4, 'f', -1, 64) }

// LineError is a problem CheckSim found at a specific line of the card (an expectation).
type LineError struct {
	Line int
	Msg  string
}

// LineErrors lets CheckSim report several located problems at once.
type LineErrors []LineError

func (l LineErrors) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return strings.Join(s, "; ")
}
