package views

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// The step view: per round, what each member sent and received, derived from the result (the
// round's assignment, revocations and additions, and the owners on the timeline at its start).

// Step-diagram geometry, in SVG user units; narrow enough to fit a phone at 11 px text or more.
const (
	sqWidth     = 380.0
	sqTop       = 34.0
	sqRow       = 19.0
	sqMaxLines  = 6 // lifelines drawn; other members appear only in the text list
	sqCoordName = "coordinator"
)

// Steps is the step view of one episode of one variant.
type Steps struct {
	ID       string // element id, unique on the page
	Closeup  string // id of the close-up svg the cursor moves on ("" when not drawn)
	Episode  Episode
	Rounds   []Step
	Protocol string
}

// Step is one round.
type Step struct {
	Round        int // index into Result.Rounds
	Name         string
	Generation   int
	FromMS, ToMS int64
	Trigger      string
	StopTheWorld bool
	Protocol     string // as the group ran it, when the engine says
	Assignor     string
	Lines        []string // the same story as text, in order
	Diagram      SeqDiagram
}

// SeqDiagram is a sequence diagram: member lifelines around the coordinator, arrows in order.
type SeqDiagram struct {
	Width, Height float64
	CoordX        float64
	Lifelines     []Lifeline
	Arrows        []Arrow
	Note          string // what the assignor or coordinator decided
	NoteY         float64
	More          int // members not drawn
}

// Lifeline is one member's column.
type Lifeline struct {
	Name   string
	X      float64
	Colour int
}

// Arrow is one message between a member and the coordinator.
type Arrow struct {
	X1, X2, Y float64
	Label     string
	Colour    int
	Reply     bool // coordinator to member
}

// BuildSteps derives the step view of each episode that has rounds.
func BuildSteps(label string, r *rebalance.Result, eps []Episode) []Steps {
	proto, _, _ := strings.Cut(label, "+")
	pal := Palette(r)
	names := roundNames(r, eps)
	var out []Steps
	for _, ep := range eps {
		if len(ep.Rounds) == 0 {
			continue
		}
		st := Steps{Episode: ep, Protocol: proto}
		for _, ri := range ep.Rounds {
			st.Rounds = append(st.Rounds, buildStep(proto, r, ri, names[ri], pal))
		}
		out = append(out, st)
	}
	return out
}

func buildStep(proto string, r *rebalance.Result, ri int, name string, pal map[string]int) Step {
	rd := r.Rounds[ri]
	if rd.Protocol != "" { // the protocol this round really ran: a group mid-migration is eager
		proto = rd.Protocol
	}
	st := Step{Round: ri, Name: name, Generation: rd.Generation, FromMS: rd.StartMS, ToMS: rd.EndMS, Trigger: rd.Trigger, StopTheWorld: rd.StopTheWorld,
		Protocol: rd.Protocol, Assignor: rd.Assignor}
	members := roundMembers(rd)
	owned := ownedAt(r, rd.StartMS)
	assigned := map[string]bool{}
	for _, its := range rd.Assignment {
		for _, it := range its {
			assigned[it] = true
		}
	}
	var withheld []string
	for _, m := range sortedKeys(rd.Revoked) {
		for _, it := range rd.Revoked[m] {
			if !assigned[it] {
				withheld = append(withheld, it)
			}
		}
	}
	sortByItem(r, withheld)
	classic := proto != "consumer"
	var sent, got []string // arrow labels per member
	for _, m := range members {
		own := owned[m]
		switch {
		case proto == "eager" && len(own) == 0:
			st.Lines = append(st.Lines, fmt.Sprintf("%s sends JoinGroup owning nothing.", m))
			sent = append(sent, "Join · 0")
		case proto == "eager":
			st.Lines = append(st.Lines, fmt.Sprintf("%s sends JoinGroup owning nothing: eager first gives up all it had, %s.", m, countList(own)))
			sent = append(sent, "Join · 0")
		case classic:
			st.Lines = append(st.Lines, fmt.Sprintf("%s sends JoinGroup listing what it owns: %s.", m, countList(own)))
			sent = append(sent, fmt.Sprintf("Join · %d", len(own)))
		default:
			st.Lines = append(st.Lines, fmt.Sprintf("%s heartbeats with member epoch %d, owning %s.", m, rd.Generation-1, countList(own)))
			sent = append(sent, fmt.Sprintf("HB · %d", len(own)))
		}
	}
	note := fmt.Sprintf("target epoch %d", rd.Generation)
	switch {
	case len(withheld) > 0 && classic:
		note = fmt.Sprintf("assignor withholds %d", len(withheld))
		st.Lines = append(st.Lines, fmt.Sprintf("The assignor computes the target and withholds %s: their owners must release them first.", countList(withheld)))
	case classic:
		note = "assignor: nothing withheld"
		st.Lines = append(st.Lines, "The assignor computes the assignment; nothing has to be withheld.")
	default:
		st.Lines = append(st.Lines, fmt.Sprintf("The coordinator computes target assignment epoch %d.", rd.Generation))
	}
	if len(rd.Parked) > 0 {
		st.Lines = append(st.Lines, fmt.Sprintf("Held back by scheduled.rebalance.max.delay.ms: %s.", countList(rd.Parked)))
	}
	for _, m := range members {
		var parts []string
		var lbl []string
		if proto == "eager" && classic {
			// The eager member gave everything up before its JoinGroup (said above): its
			// SyncGroup brings the whole new assignment, some of it perhaps its own again.
			got = append(got, eagerSync(&st, m, rd))
			continue
		}
		if rv := rd.Revoked[m]; len(rv) > 0 {
			parts = append(parts, "revoke "+countList(rv))
			lbl = append(lbl, fmt.Sprintf("−%d", len(rv)))
		}
		if ad := rd.Added[m]; len(ad) > 0 {
			parts = append(parts, "start "+countList(ad))
			lbl = append(lbl, fmt.Sprintf("+%d", len(ad)))
		}
		keep := len(rd.Assignment[m]) - len(rd.Added[m])
		if keep > 0 && proto != "eager" {
			parts = append([]string{fmt.Sprintf("keep %d", keep)}, parts...)
		}
		if len(parts) == 0 {
			parts = []string{"no change"}
		}
		if len(lbl) == 0 {
			lbl = []string{"none"}
		}
		reply := "SyncGroup"
		if !classic {
			reply = "Heartbeat response"
		}
		st.Lines = append(st.Lines, fmt.Sprintf("%s to %s: %s.", reply, m, strings.Join(parts, ", ")))
		got = append(got, strings.Join(lbl, " "))
	}
	st.Diagram = diagram(members, sent, got, pal, note)
	return st
}

// roundMembers is every member the round mentions, sorted.
func roundMembers(rd rebalance.Round) []string {
	seen := map[string]bool{}
	for _, m := range [](map[string][]string){rd.Assignment, rd.Revoked, rd.Added} {
		for k := range m {
			seen[k] = true
		}
	}
	return sortedKeys(seen)
}

// ownedAt lists, per member, the items it holds (processing, revoking or starting) at ms.
func ownedAt(r *rebalance.Result, ms int64) map[string][]string {
	out := map[string][]string{}
	for _, it := range r.Timeline {
		st, owner := StateAt(it, ms)
		if owner != "" && st != rebalance.StateUnowned {
			out[owner] = append(out[owner], it.Item)
		}
	}
	return out
}

// countList is "none", "orders-9", or "3 (orders-9, orders-10, orders-11)", shortened when long.
func countList(its []string) string {
	switch len(its) {
	case 0:
		return "none"
	case 1:
		return its[0]
	}
	s := strings.Join(its, ", ")
	if len(its) > 4 {
		s = strings.Join(its[:3], ", ") + ", …"
	}
	return fmt.Sprintf("%d (%s)", len(its), s)
}

// diagram lays members out around the coordinator: the first half to its left, the rest to its
// right; joins go in first, one row each, then the decision, then one reply row each.
func diagram(members, sent, got []string, pal map[string]int, note string) SeqDiagram {
	d := SeqDiagram{Width: sqWidth, CoordX: sqWidth / 2}
	shown := members
	if len(shown) > sqMaxLines {
		d.More = len(shown) - sqMaxLines
		shown = shown[:sqMaxLines]
	}
	left := (len(shown) + 1) / 2
	// spread places n lifelines evenly over [lo, hi], or one in its middle.
	spread := func(k, n int, lo, hi float64) float64 {
		if n == 1 {
			return (lo + hi) / 2
		}
		return lo + float64(k)*(hi-lo)/float64(n-1)
	}
	for i, m := range shown {
		x := spread(i, left, 28, d.CoordX-64)
		if i >= left {
			x = spread(i-left, len(shown)-left, d.CoordX+64, d.Width-28)
		}
		d.Lifelines = append(d.Lifelines, Lifeline{Name: m, X: round1(x), Colour: pal[m] % MemberColours})
	}
	y := sqTop
	for i, l := range d.Lifelines {
		y += sqRow
		d.Arrows = append(d.Arrows, Arrow{X1: l.X, X2: d.CoordX, Y: y, Label: sent[i], Colour: l.Colour})
	}
	y += sqRow
	d.NoteY = y
	d.Note = note
	for i, l := range d.Lifelines {
		y += sqRow
		d.Arrows = append(d.Arrows, Arrow{X1: d.CoordX, X2: l.X, Y: y, Label: got[i], Colour: l.Colour, Reply: true})
	}
	d.Height = y + 14
	return d
}

// sortByItem orders items as the timeline does (orders-2 before orders-10).
func sortByItem(r *rebalance.Result, its []string) {
	pos := make(map[string]int, len(r.Timeline))
	for i, it := range r.Timeline {
		pos[it.Item] = i
	}
	sort.SliceStable(its, func(i, j int) bool { return pos[its[i]] < pos[its[j]] })
}

// eagerSync words an eager SyncGroup answer and returns its diagram label.
func eagerSync(st *Step, m string, rd rebalance.Round) string {
	as := rd.Assignment[m]
	if len(as) == 0 {
		st.Lines = append(st.Lines, fmt.Sprintf("SyncGroup to %s: nothing assigned.", m))
		return "none"
	}
	had := map[string]bool{}
	for _, it := range rd.Revoked[m] {
		had[it] = true
	}
	back := 0
	for _, it := range as {
		if had[it] {
			back++
		}
	}
	line := fmt.Sprintf("SyncGroup to %s: assign %s", m, countList(as))
	switch {
	case back == len(as) && back > 0:
		line += ", all of them its own before the round"
	case back > 0:
		line += fmt.Sprintf(", %d of them its own before the round", back)
	}
	st.Lines = append(st.Lines, line+".")
	return fmt.Sprintf("+%d", len(as))
}
