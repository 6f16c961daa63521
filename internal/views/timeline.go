package views

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/rehearse/rehearse/internal/rebalance"
)

// Timeline geometry, in SVG user units. The viewBox scales a figure to its container; CSS keeps
// the overview at least as wide as its viewBox on a phone (it scrolls inside its box) and the
// close-up, narrower, fits a phone's width, so figure text stays at 11 px or more.
const (
	tlWidth   = 560.0 // overview
	tlCloseW  = 380.0 // close-up
	tlLabelW  = 74.0
	tlRight   = 14.0
	tlTop     = 30.0 // room for marker heads and round labels
	tlRowH    = 16.0
	tlRowGap  = 4.0
	tlAxisH   = 28.0
	tlMinSegW = 3.0 // a pause narrower than this is merged into one visible mark
	// closeAllRows: a close-up of a group with more items draws only the rows that change.
	closeAllRows = 12
	// MaxTimelineRows caps the rows drawn per timeline; the rest are counted as hidden.
	MaxTimelineRows = 24
	// MemberColours is the size of the owner palette (Okabe–Ito, see sim.css); owners beyond it reuse colours.
	MemberColours = 8
)

// Timeline is one variant's run, or a window of it, laid out for the SVG.
type Timeline struct {
	ID           string // element id, unique on the page
	View         string // "overview" or "closeup"
	Label        string // the variant, e.g. "cooperative+static"
	Title        string // accessible name of the figure
	Width        float64
	Height       float64
	PlotX, PlotW float64
	AxisY        float64
	FromMS, ToMS int64 // the window drawn
	Rows         []TimelineRow
	Hidden       int // rows not drawn (MaxTimelineRows)
	Steady       int // close-up: rows left out because they process with one owner throughout
	Ticks        []Tick
	Markers      []Marker
	Bands        []Band // close-up: one per round
	DurationMS   int64
	Truncated    bool
	Episode      int // close-up: the episode's number
}

// TimelineRow is one partition, connector or task.
type TimelineRow struct {
	Item string
	Y    float64
	Segs []TimelineSeg
}

// TimelineSeg is a drawn span: a state with its owner, or a merged pause too short to show
// its parts (State is then the most telling one, Title lists every part).
type TimelineSeg struct {
	X, W   float64
	State  string
	FromMS int64
	ToMS   int64
	Owner  string
	Colour int // owner's palette index, -1 for none
	Title  string
}

// Tick is a label on the time axis.
type Tick struct {
	X     float64
	Label string
}

// Marker is a vertical line for an event or the start of a rebalance round.
type Marker struct {
	X     float64
	Kind  string // "event" or "round"
	Title string
}

// Band spans one round in a close-up, labelled with its number.
type Band struct {
	X, W, LabelX float64
	Label        string
	Round        int // index into Result.Rounds
	FromMS, ToMS int64
}

// Palette gives each member of the run a colour index, in the run's member order, so a member
// has the same colour in every view of one variant.
func Palette(r *rebalance.Result) map[string]int {
	names := paletteOrder(r)
	p := make(map[string]int, len(names))
	for i, m := range names {
		p[m] = i % MemberColours
	}
	return p
}

// paletteOrder is the run's members, then any other owner on the timeline, each once.
func paletteOrder(r *rebalance.Result) []string {
	seen := map[string]bool{}
	var out []string
	add := func(m string) {
		if m != "" && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	for _, m := range r.Members {
		add(m)
	}
	for _, it := range r.Timeline {
		for _, s := range it.Segments {
			add(s.Owner)
		}
	}
	return out
}

// LayoutTimeline lays out the whole run. Every variant of one scenario shares the duration,
// so their axes line up.
func LayoutTimeline(label string, r *rebalance.Result) Timeline {
	eps := Episodes(r)
	return layout(label, r, "overview", 0, r.DurationMS, roundNames(r, eps), Palette(r))
}

// LayoutCloseup lays out one episode on its own axis, with a band per round.
func LayoutCloseup(label string, r *rebalance.Result, eps []Episode, ep Episode) Timeline {
	from, to := closeWindow(ep, r.DurationMS)
	names := roundNames(r, eps)
	t := layout(label, r, "closeup", from, to, names, Palette(r))
	t.Episode = ep.N
	x := t.xOf()
	labelEnd := 0.0 // right edge of the last band label, so close rounds' labels do not overlap
	for k, ri := range ep.Rounds {
		rd := r.Rounds[ri]
		x0, x1 := x(max(rd.StartMS, from)), x(min(rd.EndMS, to))
		label := fmt.Sprintf("round %d", k+1) // the close-up is one episode: its own numbering
		lx := min(max(x0+2, labelEnd+6), t.Width-float64(len(label))*7)
		labelEnd = lx + float64(len(label))*7
		t.Bands = append(t.Bands, Band{X: round1(x0), W: round1(max(x1-x0, 2)), LabelX: round1(lx), Label: label, Round: ri, FromMS: rd.StartMS, ToMS: rd.EndMS})
	}
	t.Title = fmt.Sprintf("Close-up of episode %d for %s: %s to %s", ep.N, label, Secs(from), Secs(to))
	return t
}

func roundNames(r *rebalance.Result, eps []Episode) []string {
	refs := RoundRefs(eps, len(r.Rounds))
	names := make([]string, len(refs))
	for i, ref := range refs {
		names[i] = RoundName(ref, len(eps))
	}
	return names
}

// xOf maps a time to the plot's x.
func (t Timeline) xOf() func(int64) float64 {
	span := float64(max(t.ToMS-t.FromMS, 1))
	return func(ms int64) float64 { return t.PlotX + float64(ms-t.FromMS)/span*t.PlotW }
}

func layout(label string, r *rebalance.Result, view string, from, to int64, names []string, pal map[string]int) Timeline {
	w := tlWidth
	if view == "closeup" {
		w = tlCloseW
	}
	t := Timeline{View: view, Label: label, Width: w, PlotX: tlLabelW, PlotW: w - tlLabelW - tlRight, FromMS: from, ToMS: to,
		DurationMS: r.DurationMS, Truncated: r.Truncated}
	x := t.xOf()
	rows := r.Timeline
	if len(rows) > MaxTimelineRows {
		t.Hidden = len(rows) - MaxTimelineRows
		rows = rows[:MaxTimelineRows]
	}
	for _, it := range rows {
		segs := mergeSegments(clip(it.Segments, from, to), x, pal)
		if view == "closeup" && len(rows) > closeAllRows && steady(segs) {
			t.Steady++ // a big group's close-up draws only what changes; the overview has the rest
			continue
		}
		t.Rows = append(t.Rows, TimelineRow{Item: it.Item, Y: tlTop + float64(len(t.Rows))*(tlRowH+tlRowGap), Segs: segs})
	}
	t.AxisY = tlTop + float64(len(t.Rows))*(tlRowH+tlRowGap) + 2
	t.Height = t.AxisY + tlAxisH
	for _, k := range tickTimes(from, to) {
		t.Ticks = append(t.Ticks, Tick{X: x(k.ms), Label: k.label})
	}
	for _, e := range r.Events {
		if e.AtMS < from || e.AtMS > to {
			continue
		}
		who := ""
		if e.Member != "" {
			who = " " + e.Member
		}
		t.Markers = append(t.Markers, Marker{X: x(e.AtMS), Kind: "event", Title: fmt.Sprintf("%s:%s %s", Secs(e.AtMS), who, strings.ReplaceAll(e.Type, "_", " "))})
	}
	for i, rd := range r.Rounds {
		if rd.StartMS < from || rd.StartMS > to {
			continue
		}
		t.Markers = append(t.Markers, Marker{X: x(rd.StartMS), Kind: "round", Title: fmt.Sprintf("%s: %s starts, generation %d (%s)", Secs(rd.StartMS), names[i], rd.Generation, rd.Trigger)})
	}
	t.Title = fmt.Sprintf("Timeline for %s: %d rows over %s", label, len(r.Timeline), Secs(r.DurationMS))
	return t
}

// steady reports whether a row is one owner processing for the whole window.
func steady(segs []TimelineSeg) bool {
	return len(segs) == 1 && segs[0].State == rebalance.StateProcessing
}

// clip keeps the parts of segments inside [from, to].
func clip(in []rebalance.Segment, from, to int64) []rebalance.Segment {
	out := make([]rebalance.Segment, 0, len(in))
	for _, s := range in {
		if s.ToMS <= from || s.FromMS >= to {
			continue
		}
		s.FromMS, s.ToMS = max(s.FromMS, from), min(s.ToMS, to)
		out = append(out, s)
	}
	return out
}

// mergeSegments joins neighbours in the same state and owner, and folds runs of short
// non-processing spans into one mark wide enough to see. Titles are short: they repeat on
// every segment, and the figure should stay a few kilobytes.
func mergeSegments(in []rebalance.Segment, x func(int64) float64, pal map[string]int) []TimelineSeg {
	var out []TimelineSeg
	var parts []string            // the states folded into the last mark
	longest := map[string]int64{} // time per state within the current fold
	for _, s := range in {
		if s.ToMS <= s.FromMS {
			continue
		}
		if n := len(out); n > 0 {
			last := &out[n-1]
			same := last.State == s.State && last.Owner == s.Owner && last.ToMS == s.FromMS
			fold := last.State != rebalance.StateProcessing && s.State != rebalance.StateProcessing && last.ToMS == s.FromMS &&
				(x(last.ToMS)-x(last.FromMS) < tlMinSegW || x(s.ToMS)-x(s.FromMS) < tlMinSegW)
			if same || fold {
				last.ToMS = s.ToMS
				longest[s.State] += s.ToMS - s.FromMS
				if !same {
					parts = append(parts, stateOwner(s.State, s.Owner))
					last.State, last.Owner = dominant(longest), ""
				}
				last.Title = segTitle(*last, parts)
				continue
			}
		}
		clear(longest)
		longest[s.State] = s.ToMS - s.FromMS
		parts = []string{stateOwner(s.State, s.Owner)}
		seg := TimelineSeg{State: s.State, FromMS: s.FromMS, ToMS: s.ToMS, Owner: s.Owner}
		seg.Title = segTitle(seg, parts)
		out = append(out, seg)
	}
	for i := range out {
		s := &out[i]
		s.Colour = -1
		if c, ok := pal[s.Owner]; ok && s.Owner != "" {
			s.Colour = c
		}
		s.X = round1(x(s.FromMS))
		s.W = round1(max(x(s.ToMS)-x(s.FromMS), 0.4))
		if s.State != rebalance.StateProcessing {
			s.W = max(s.W, tlMinSegW)
		}
	}
	return out
}

// dominant names a folded pause after the state that matters most to a reader: any moment
// unowned, then revoking, then starting.
func dominant(m map[string]int64) string {
	for _, st := range []string{rebalance.StateUnowned, rebalance.StateRevoking, rebalance.StateStarting} {
		if m[st] > 0 {
			return st
		}
	}
	return rebalance.StateProcessing
}

// stateOwner: "processing m1", "unowned (m2)" for an item still assigned to a dead member.
func stateOwner(state, owner string) string {
	switch {
	case owner == "":
		return state
	case state == rebalance.StateUnowned:
		return state + " (" + owner + ")"
	}
	return state + " " + owner
}

// segTitle is the hover text: "processing m1 0–10.5 s", or for a fold
// "paused 10.5–10.9 s: revoking m1, unowned, starting m2".
func segTitle(s TimelineSeg, parts []string) string {
	span := fmt.Sprintf("%s–%s s", num(s.FromMS), num(s.ToMS))
	if len(parts) > 1 {
		return "paused " + span + ": " + strings.Join(parts, ", ")
	}
	return parts[0] + " " + span
}

// num formats milliseconds as seconds to a tenth ("10.5", "60").
func num(ms int64) string { return strconv.FormatFloat(math.Round(float64(ms)/100)/10, 'f', -1, 64) }

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

type tick struct {
	ms    int64
	label string
}

// tickTimes picks round tick positions, about five to eight across the window, labelled in
// seconds with as many decimals as the step needs.
func tickTimes(from, to int64) []tick {
	steps := []int64{10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000}
	span := max(to-from, 1)
	step := steps[len(steps)-1]
	for _, s := range steps {
		if span/s <= 7 {
			step = s
			break
		}
	}
	prec := 0
	if step < 100 {
		prec = 2
	} else if step < 1000 {
		prec = 1
	}
	var out []tick
	for t := (from + step - 1) / step * step; t <= to; t += step {
		out = append(out, tick{t, strconv.FormatFloat(float64(t)/1000, 'f', prec, 64)})
	}
	return out
}

// Secs formats milliseconds as seconds with one decimal ("10.0 s").
func Secs(ms int64) string { return fmt.Sprintf("%.1f s", float64(ms)/1000) }

// ScrubData is the compact JSON the scrubber script reads: items, owners, and per item its
// segments as [from_ms, to_ms, state index, owner index] (owner -1 for none).
func ScrubData(label string, r *rebalance.Result, maxRows int) string {
	states := []string{rebalance.StateProcessing, rebalance.StateRevoking, rebalance.StateUnowned, rebalance.StateStarting}
	si := map[string]int{}
	for i, s := range states {
		si[s] = i
	}
	oi := map[string]int{}
	var owners []string
	d := struct {
		Label  string       `json:"label"`
		States []string     `json:"states"`
		Items  []string     `json:"items"`
		Owners []string     `json:"owners"`
		Segs   [][][4]int64 `json:"segs"`
	}{Label: label, States: states}
	for i, it := range r.Timeline {
		if i == maxRows {
			break
		}
		d.Items = append(d.Items, it.Item)
		row := make([][4]int64, 0, len(it.Segments))
		for _, s := range it.Segments {
			o := int64(-1)
			if s.Owner != "" {
				n, ok := oi[s.Owner]
				if !ok {
					n = len(owners)
					oi[s.Owner] = n
					owners = append(owners, s.Owner)
				}
				o = int64(n)
			}
			row = append(row, [4]int64{s.FromMS, s.ToMS, int64(si[s.State]), o})
		}
		d.Segs = append(d.Segs, row)
	}
	d.Owners = owners
	b, _ := json.Marshal(d)
	return string(b)
}

// StateAt returns an item's state and owner at ms ("" before the item exists). The run's last
// instant belongs to the segment that ends there.
func StateAt(tl rebalance.ItemTimeline, ms int64) (state, owner string) {
	for i, s := range tl.Segments {
		if s.FromMS <= ms && (ms < s.ToMS || (i == len(tl.Segments)-1 && ms == s.ToMS)) {
			return s.State, s.Owner
		}
	}
	return "", ""
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
